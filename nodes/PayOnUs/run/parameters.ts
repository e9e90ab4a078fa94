import { deepCopy, type IDataObject } from 'n8n-workflow';

/**
 * Per-item parameter reads: a parameter whose stored value holds no
 * expression is read once and reused (copied) for every item; n8n would
 * return the same value each time, at the cost of a copy and a walk per item.
 * A parameter whose expression only names a field of the item is read from
 * the item (itemField below).
 */

export function containsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(containsExpression);
	if (value !== null && typeof value === 'object') return Object.values(value as IDataObject).some(containsExpression);
	return false;
}

function copy<T>(value: T): T {
	return value !== null && typeof value === 'object' ? deepCopy(value) : value;
}

export class ItemParameters {
	private readonly fixed: Set<string>;
	private readonly answers = new Map<string, { value: unknown } | { error: unknown }>();

	constructor(
		private readonly read: (name: string, itemIndex: number) => unknown,
		stored: IDataObject | undefined,
		names: readonly string[],
	) {
		const params = stored ?? {};
		this.fixed = new Set(
			names.filter((name) => Object.prototype.hasOwnProperty.call(params, name) && !containsExpression(params[name])),
		);
	}

	/** Whether `name` is read once for all items. */
	isFixed(name: string): boolean {
		return this.fixed.has(name);
	}

	get(name: string, itemIndex: number): unknown {
		if (!this.fixed.has(name)) return this.read(name, itemIndex);
		let answer = this.answers.get(name);
		if (!answer) {
			try {
				answer = { value: this.read(name, itemIndex) };
			} catch (error) {
				answer = { error };
			}
			this.answers.set(name, answer);
		}
		if ('error' in answer) throw answer.error;
		return copy(answer.value);
	}
}

/** A resource locator ({ __rl: true, mode, value }) gives its value; anything else is itself. */
export function locatorValue(value: unknown): unknown {
	return value !== null && typeof value === 'object' && (value as IDataObject).__rl === true ? (value as IDataObject).value : value;
}

/** `={{ $json.a }}`, `={{ $json.a.b }}`: an expression that only names a field of the item (dotted names). */
const FIELD_EXPRESSION = /^=\{\{\s*\$json((?:\.[A-Za-z_$][\w$]*)+)\s*\}\}$/;

/**
 * The field path of a stored value that is nothing but `={{ $json.<path> }}`
 * (directly, or as a resource locator's value); undefined for anything else.
 */
export function itemFieldPath(stored: unknown): string[] | undefined {
	const text = locatorValue(stored);
	if (typeof text !== 'string') return undefined;
	const match = FIELD_EXPRESSION.exec(text);
	return match ? match[1].slice(1).split('.') : undefined;
}

/**
 * The value `={{ $json.<path> }}` gives for this item, read from the item
 * itself when it is text, a finite number or true/false: n8n's evaluation
 * gives exactly that value ($json is the item's JSON, and a parameter of
 * this package declares no validateType, so n8n converts nothing), without
 * its cost (about 2 ms an item on n8n 2's isolated expression runtime, most
 * of a read's time in the node: docs/performance.md). Undefined (ask n8n)
 * for anything else: a field that is missing or not the item's own, null,
 * an object or array, NaN or Infinity, so n8n decides what those give.
 */
export function itemField(json: IDataObject | undefined, path: readonly string[]): string | number | boolean | undefined {
	let value: unknown = json;
	for (const key of path) {
		if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.prototype.hasOwnProperty.call(value, key)) {
			return undefined;
		}
		value = (value as IDataObject)[key];
	}
	if (typeof value === 'string' || typeof value === 'boolean') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	return undefined;
}
