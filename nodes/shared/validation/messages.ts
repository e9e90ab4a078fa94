import type { z } from 'zod/v3';
import { REQUIRED } from './reading';

/** A zod error in words, naming each field the way the node shows it. */

export function humanize(name: string): string {
	const words = name
		.replace(/([a-z\d])([A-Z])/g, '$1 $2')
		.replace(/[_-]+/g, ' ')
		.trim();
	const titled = words.charAt(0).toUpperCase() + words.slice(1);
	return titled.replace(/\b(Id|Bvn|Otp|Url|Eft)\b/g, (w) => w.toUpperCase());
}

function issueMessage(issue: z.ZodIssue): string {
	if (issue.code === 'invalid_type' && issue.received === 'undefined') return REQUIRED;
	if (issue.code === 'invalid_type' && issue.expected === 'string' && issue.received === 'object') return 'must be text, not an object';
	if (issue.code === 'invalid_type' && issue.expected === 'string' && issue.received === 'array') return 'must be text, not a list';
	if (issue.code === 'unrecognized_keys') return `has unknown fields: ${issue.keys.join(', ')}`;
	return issue.message;
}

/**
 * Turns a zod error into one sentence naming the field: `"amount" must be
 * greater than 0` (the first issue; internal names). The node itself uses
 * describeIssues (field labels, every field).
 */
export function describeIssue(error: z.ZodError): { field: string; message: string } {
	const issue = error.issues[0];
	const field = issue.path.length > 0 ? issue.path.join('.') : 'input';
	return { field, message: `"${field}" ${issueMessage(issue)}` };
}

export interface InputProblems {
	/** Short title: the one problem, or how many fields and which. */
	title: string;
	/** Every problem, one sentence each (undefined when the title says it all). */
	description?: string;
	/** One sentence per invalid field, in the order of the form. */
	problems: string[];
	/** The internal path of the first invalid field ("filters.toDate"). */
	field: string;
}

/**
 * Every invalid field of one item at once, named by the label the user sees
 * in the node (`label` maps an internal path such as "filters.toDate" to
 * "To Date"; without it the name is humanized). One problem per field.
 */
export function describeIssues(error: z.ZodError, label: (path: string) => string = (p) => humanize(p.split('.').pop() ?? p)): InputProblems {
	const seen = new Set<string>();
	const problems: string[] = [];
	const labels: string[] = [];
	let first = '';
	for (const issue of error.issues) {
		const path = issue.path.length > 0 ? issue.path.join('.') : '';
		if (seen.has(path)) continue;
		seen.add(path);
		if (problems.length === 0) first = path || 'input';
		const name = path ? label(path) : 'Input';
		labels.push(name);
		problems.push(`"${name}" ${issueMessage(issue)}`);
	}
	if (problems.length === 1) return { title: problems[0], problems, field: first };
	return {
		title: `${problems.length} fields to fix: ${labels.join(', ')}`,
		description: problems.map((p) => `${p}.`).join(' '),
		problems,
		field: first,
	};
}
