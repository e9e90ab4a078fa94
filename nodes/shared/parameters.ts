/**
 * Strict reading of node parameters the way n8n hands them.
 *
 * A parameter set to a fixed value arrives with its type (a boolean, a
 * number, an option value). A parameter set to an expression arrives as
 * whatever the expression gave: `{{ $json.dryRun }}` on an item holding the
 * text "true" gives the TEXT "true", an n8n Variable is always text, and an
 * expression naming a missing field gives undefined or ''. n8n converts
 * only parameters that declare `validateType`, and then also takes "1"/"0"
 * as booleans and lets undefined through; this package's properties do not
 * declare it and read every value here instead.
 *
 * The rules (shared by the action node, the triggers and the payment page):
 * - boolean: true/false, or the text "true"/"false" (trimmed, any case).
 *   Anything else ("yes", "", "1", undefined from an expression, null) is an
 *   error naming the parameter and the value, never the default.
 * - number: a finite number, or text that is a plain decimal number
 *   ("1500.00", " 25 "). Anything else ('', "1,5", "abc", NaN) is an error.
 * - option: one of the option values (text trimmed); anything else an error.
 *
 * Errors are ParameterValueError; their message does not name the item
 * (callers add "Item N: ", they know whether there is one).
 */

export class ParameterValueError extends Error {
	constructor(
		readonly parameter: string,
		readonly value: unknown,
		expected: string,
		displayName?: string,
	) {
		const shown = displayName && displayName !== parameter ? ` (${displayName})` : '';
		super(`"${parameter}"${shown} must be ${expected}, got ${describeValue(value)}`);
		this.name = 'ParameterValueError';
	}
}

/** A value in a few words for an error message: "yes" (text), nothing (undefined), 1 (number)... */
export function describeValue(value: unknown): string {
	if (value === undefined) return 'nothing (undefined: the expression gave no value)';
	if (value === null) return 'null';
	if (typeof value === 'string') {
		const shown = value.length > 60 ? `${value.slice(0, 60)}...` : value;
		return value.trim() === '' ? `empty text ${JSON.stringify(value)}` : `the text ${JSON.stringify(shown)}`;
	}
	if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
	if (Array.isArray(value)) return 'a list';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** true/false from a boolean or the text "true"/"false" (trimmed, any case); undefined otherwise. */
export function parseBoolean(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	if (typeof value === 'string') {
		const t = value.trim().toLowerCase();
		if (t === 'true') return true;
		if (t === 'false') return false;
	}
	return undefined;
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A finite number from a number or plain decimal text; undefined otherwise. */
export function parseNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && DECIMAL.test(value.trim())) return Number(value.trim());
	return undefined;
}

/** A boolean parameter, strictly (see the rules above); `parameter` names it in the error. */
export function readBoolean(value: unknown, parameter: string, displayName?: string): boolean {
	const b = parseBoolean(value);
	if (b === undefined) throw new ParameterValueError(parameter, value, 'true or false', displayName);
	return b;
}

/** A number parameter, strictly (see the rules above). */
export function readNumber(value: unknown, parameter: string, displayName?: string): number {
	const n = parseNumber(value);
	if (n === undefined) throw new ParameterValueError(parameter, value, 'a number', displayName);
	return n;
}

/** An option parameter: one of `allowed` (text trimmed, case kept). */
export function readOption<T extends string | number | boolean>(
	value: unknown,
	allowed: readonly T[],
	parameter: string,
	displayName?: string,
): T {
	const v = typeof value === 'string' ? value.trim() : value;
	const found = allowed.find((a) => a === v);
	if (found === undefined) {
		throw new ParameterValueError(parameter, value, `one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`, displayName);
	}
	return found;
}

/** Whether a stored parameter value holds an expression (a text starting with "="). */
export function isExpression(stored: unknown): boolean {
	return typeof stored === 'string' && stored.startsWith('=');
}

/**
 * A boolean parameter of a node, read through its getter and strictly:
 * for the triggers and the payment page, e.g.
 * `booleanParameter((n, f) => this.getNodeParameter(n, f), 'confirmWithService', true)`.
 * `fallback` only applies when the parameter is absent (hidden, or an old
 * workflow without it); a value that is present but not a clear yes/no is
 * an error.
 */
export function booleanParameter(get: (name: string, fallback: unknown) => unknown, name: string, fallback: boolean): boolean {
	return readBoolean(get(name, fallback), name);
}

/** The same for a number parameter. */
export function numberParameter(get: (name: string, fallback: unknown) => unknown, name: string, fallback: number): number {
	return readNumber(get(name, fallback), name);
}
