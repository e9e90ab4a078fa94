import { deepCopy, type IDataObject } from 'n8n-workflow';

/**
 * Per-item parameter reads without re-reading what cannot differ between
 * items.
 *
 * n8n's getNodeParameter(name, itemIndex) copies the stored value, walks it
 * for expressions and checks it, for every item: with a Create Transfer of 17
 * fields and one expression, 16 of 17 reads per item give the same answer
 * each time (the CPU profile of `npm run bench -- real-network --profile`
 * showed parameter reads as the largest part of this node's own time).
 *
 * A parameter is read once (for the first item that asks) and its answer
 * reused when its stored value holds no expression anywhere (no string
 * starting with "="): n8n then returns the same value for every item. A
 * parameter absent from the stored parameters, or holding an expression, is
 * read for each item as before. Reused objects are copied, so an item can
 * never see another item's changes. A read that failed fails the same way
 * for every item.
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
