import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import { PayOnUs } from '../../nodes/PayOnUs/PayOnUs.node';
import { findOperation } from '../../nodes/PayOnUs/resources';
import { SIMPLIFIERS } from '../../nodes/shared/simplify';
import { SIMPLIFIED_FIELDS, simplifyRecord, type SimplifiedKind } from '../../nodes/shared/triggerSimplify';
import { ROOT } from './repoFiles';

/**
 * The examples' expressions against the simplified items (issue 31 point 4):
 * every field an example reads from a node whose items are simplified
 * (`$json.x` in a node it feeds, `$('Node').item.json.x` anywhere) is a field
 * of that node's simplified item, for the node's output and settings, computed by the nodes' own simplify functions. A field the
 * simplified item does not have would map to an empty value.
 */

interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: IDataObject;
}
interface Workflow {
	nodes: WorkflowNode[];
	connections: Record<string, { main?: Array<Array<{ node: string }> | null> }>;
}

const PACKAGE = 'n8n-nodes-payonus.';
/** n8n nodes whose output items are their input items. */
const PASS_THROUGH = new Set(['n8n-nodes-base.if', 'n8n-nodes-base.switch', 'n8n-nodes-base.filter', 'n8n-nodes-base.noOp']);

/** An item carrying every field the kind names, plus the context the output adds. */
function fullItem(kind: SimplifiedKind, context: string[]): IDataObject {
	const item: IDataObject = {};
	for (const f of SIMPLIFIED_FIELDS[kind]) item[f] = 'x';
	for (const f of ['event', 'confirmed', 'confirmation', 'resource', 'change', 'outcome', 'reason', 'cardTokenIdChecked']) {
		if (!context.includes(f)) delete item[f];
	}
	for (const f of context) item[f] = 'x';
	return item;
}

const fieldsOf = (kind: SimplifiedKind, context: string[]) => Object.keys(simplifyRecord(kind, fullItem(kind, context)));

const action = new PayOnUs().description;

/**
 * The fields of a node's simplified items on one output (undefined: the
 * output is not simplified, anything may be read).
 */
export function simplifiedFields(node: WorkflowNode, output: number): Set<string> | undefined {
	const p = node.parameters;
	const type = node.type.startsWith(PACKAGE) ? node.type.slice(PACKAGE.length) : '';
	if (p.simplify === false) return undefined;
	const union = (lists: string[][]) => new Set(lists.flat());
	switch (type) {
		case 'payOnUsTrigger': {
			if (output > 1) return undefined;
			const events = (p.events as string[] | undefined) ?? [];
			const kinds = new Set<SimplifiedKind>(
				events.map((e) => (e === 'COLLECTION' ? 'payin' : e === 'card_tokenization_link.completed' ? 'tokenization' : 'payout')),
			);
			const context = output === 0 ? ['event', 'confirmed'] : ['event', 'confirmed', 'confirmation'];
			return union([...kinds].map((k) => fieldsOf(k, k === 'tokenization' ? [...context, 'cardTokenIdChecked'] : context)));
		}
		case 'payOnUsPollTrigger': {
			const watch = (p.watch as string[] | undefined) ?? ['payins', 'payouts'];
			return union(watch.map((w) => fieldsOf(w === 'payins' ? 'payin' : 'payout', ['resource', 'change'])));
		}
		case 'payOnUsPaymentPage': {
			if (output > 1) return undefined;
			return new Set(output === 0 ? fieldsOf('pagePaid', []) : fieldsOf('pageNotPaid', ['outcome', 'reason']));
		}
		case 'payOnUs': {
			if (output !== 0) return undefined; // the error output
			const op = findOperation(String(p.resource), String(p.operation));
			const simplify = action.properties.find(
				(q) => q.name === 'simplify' && (q.displayOptions?.show?.operation as string[] | undefined)?.includes(String(p.operation)),
			);
			if (!op?.outputRecord || !simplify) return undefined;
			const all: IDataObject = {};
			for (const list of Object.values(SIMPLIFIED_FIELDS)) for (const f of list) all[f] = 'x';
			for (const f of ['recoveredByLookup', 'duplicateReference', 'transactionAmount', 'reference']) all[f] = 'x';
			return new Set(Object.keys(SIMPLIFIERS[op.outputRecord](all)));
		}
		default:
			return undefined;
	}
}

/** Every string of a node's parameters (nested), with `$json`/`$('X')` references in it. */
function strings(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (Array.isArray(value)) return value.flatMap(strings);
	if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
	return [];
}

const FIELD = String.raw`(?:\.([A-Za-z_$][\w$]*)|\[\s*['"]([^'"]+)['"]\s*\])`;

/** `$json.x` fields (of the node's input item). */
function inputFields(text: string): string[] {
	return [...text.matchAll(new RegExp(String.raw`(?<![\w.])\$json${FIELD}`, 'g'))].map((m) => m[1] ?? m[2]);
}

/** `$('Node').item.json.x`, `.first().json.x`, `$node["Node"].json.x`: [node, field]. */
function namedFields(text: string): Array<[string, string]> {
	const out: Array<[string, string]> = [];
	const re = new RegExp(String.raw`\$\(\s*(['"])(.+?)\1\s*\)\s*\.(?:item|first\(\)|last\(\)|itemMatching\([^)]*\)|all\(\)\[\d+\])\.json${FIELD}`, 'g');
	for (const m of text.matchAll(re)) out.push([m[2], m[3] ?? m[4]]);
	for (const m of text.matchAll(new RegExp(String.raw`\$node\[\s*(['"])(.+?)\1\s*\]\.json${FIELD}`, 'g'))) out.push([m[2], m[3] ?? m[4]]);
	return out;
}

/** What an example reads that a simplified node does not give. */
export function missingFields(workflow: Workflow): string[] {
	const byName = new Map(workflow.nodes.map((n) => [n.name, n]));
	const parents = new Map<string, Array<{ from: WorkflowNode; output: number }>>();
	for (const [from, outs] of Object.entries(workflow.connections)) {
		(outs.main ?? []).forEach((targets, output) => {
			for (const t of targets ?? []) {
				const list = parents.get(t.node) ?? [];
				list.push({ from: byName.get(from)!, output });
				parents.set(t.node, list);
			}
		});
	}
	const allOutputs = (node: WorkflowNode): Set<string> | undefined => {
		const sets = [0, 1].map((o) => simplifiedFields(node, o));
		if (sets.every((s) => s === undefined)) return undefined;
		return new Set(sets.flatMap((s) => (s ? [...s] : [])));
	};
	/**
	 * The simplified items that reach a node's input, through nodes that pass
	 * items on unchanged (If, Switch, Filter, No Op) or add fields to them (Set
	 * with "Include Other Input Fields"): where they came from, and the fields
	 * they have there.
	 */
	const reaching = (name: string, seen = new Set<string>()): Array<{ origin: string; fields: Set<string> }> => {
		if (seen.has(name)) return [];
		seen.add(name);
		const out: Array<{ origin: string; fields: Set<string> }> = [];
		for (const { from, output } of parents.get(name) ?? []) {
			const fields = simplifiedFields(from, output);
			if (fields) out.push({ origin: `"${from.name}" (output ${output + 1}, simplified)`, fields });
			else if (PASS_THROUGH.has(from.type)) out.push(...reaching(from.name, new Set(seen)));
			else if (from.type === 'n8n-nodes-base.set' && from.parameters.includeOtherFields === true) {
				const added = ((from.parameters.assignments as { assignments?: Array<{ name: string }> } | undefined)?.assignments ?? []).map((a) => a.name);
				for (const r of reaching(from.name, new Set(seen))) out.push({ origin: r.origin, fields: new Set([...r.fields, ...added]) });
			}
		}
		return out;
	};
	const missing: string[] = [];
	for (const node of workflow.nodes) {
		for (const text of strings(node.parameters)) {
			for (const field of inputFields(text)) {
				for (const { origin, fields } of reaching(node.name)) {
					if (!fields.has(field)) missing.push(`"${node.name}" reads $json.${field}; ${origin} has no ${field}`);
				}
			}
			for (const [name, field] of namedFields(text)) {
				const from = byName.get(name);
				const fields = from && allOutputs(from);
				if (fields && !fields.has(field)) missing.push(`"${node.name}" reads $('${name}').item.json.${field}; "${name}" (simplified) has no ${field}`);
			}
		}
	}
	return missing;
}

const examples = readdirSync(join(ROOT, 'examples')).filter((f) => f.endsWith('.json'));

describe("the examples' expressions against the simplified items", () => {
	it('the checker: a field the simplified item lacks is found, on the right output', () => {
		const trigger = (): WorkflowNode => ({ name: 'T', type: `${PACKAGE}payOnUsTrigger`, typeVersion: 1, parameters: { events: ['COLLECTION'] } });
		const reader: WorkflowNode = { name: 'R', type: 'n8n-nodes-base.set', typeVersion: 3, parameters: { value: "={{ $json.businessId }} {{ $('T').item.json.lastUpdatedDate }}" } };
		const wf = (t: WorkflowNode): Workflow => ({ nodes: [t, reader], connections: { T: { main: [[{ node: 'R' }]] } } });
		expect(missingFields(wf(trigger()))).toEqual([`"R" reads $('T').item.json.lastUpdatedDate; "T" (simplified) has no lastUpdatedDate`]);
		expect(missingFields(wf({ ...trigger(), parameters: { events: ['COLLECTION'], simplify: false } }))).toEqual([]);
		expect(simplifiedFields(trigger(), 1)).toContain('confirmation');
		// Through an If and a Set that keeps the input's fields (and adds its own).
		const iff: WorkflowNode = { name: 'I', type: 'n8n-nodes-base.if', typeVersion: 2, parameters: {} };
		const set: WorkflowNode = { name: 'S', type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: { includeOtherFields: true, assignments: { assignments: [{ name: 'headline', value: 'x' }] } } };
		const last: WorkflowNode = { name: 'L', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: { note: '={{ $json.headline }} {{ $json.paymentChannel }} {{ $json.createdDate }}' } };
		const chain: Workflow = {
			nodes: [trigger(), iff, set, last],
			connections: { T: { main: [[{ node: 'I' }]] }, I: { main: [[{ node: 'S' }], [{ node: 'L' }]] }, S: { main: [[{ node: 'L' }]] } },
		};
		// The If's second branch reaches L without the Set: headline is missing there.
		expect(missingFields(chain)).toEqual([
			'"L" reads $json.headline; "T" (output 1, simplified) has no headline',
			'"L" reads $json.paymentChannel; "T" (output 1, simplified) has no paymentChannel',
			'"L" reads $json.paymentChannel; "T" (output 1, simplified) has no paymentChannel',
			'"L" reads $json.createdDate; "T" (output 1, simplified) has no createdDate',
			'"L" reads $json.createdDate; "T" (output 1, simplified) has no createdDate',
		]);
	});

	it('reads every example', () => {
		expect(examples.length).toBeGreaterThanOrEqual(5);
	});

	it.each(examples)('%s reads only fields its simplified nodes give', (file) => {
		const workflow = JSON.parse(readFileSync(join(ROOT, 'examples', file), 'utf8')) as Workflow;
		expect(missingFields(workflow)).toEqual([]);
	});
});
