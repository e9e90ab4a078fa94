import { deepCopy, type IDataObject } from 'n8n-workflow';

/**
 * Per-item parameter reads: a parameter whose stored value holds no
 * expression is read once and reused (copied) for every item; n8n would
 * return the same value each time, at the cost of a copy and a walk per item.
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
