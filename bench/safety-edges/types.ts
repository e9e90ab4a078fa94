/**
 * One row of the safety-edges drill (`npm run bench -- safety-edges`): a
 * safety net tried at one edge the way a user wires it, with what must happen,
 * what happened, and the four counts whose goal is 0.
 *
 * Each area of the drill is one file in this folder exporting `area`
 * (a `SafetyArea`); the bench loads every file here except this one.
 */
export interface SafetyRow {
	/** The safety net, e.g. "Dry Run", "Payment page once-per-payment". */
	net: string;
	/** The edge, e.g. 'Dry Run from an expression giving the text "true"'. */
	edge: string;
	expected: string;
	observed: string;
	/** Money movements the safety net should have stopped (goal 0). */
	moneyMoved: number;
	/** Workflow starts for an event or payment already started once (goal 0). */
	duplicateStarts: number;
	/** Items that reported success for something that did not succeed for them (goal 0). */
	falseSuccesses: number;
	/** New events or changes never emitted (goal 0). */
	blindWindows: number;
	/** Whether observed matches expected and every count is 0. */
	pass: boolean;
}

export interface SafetyArea {
	/** Short name shown in the table's first column group, e.g. "dry-run". */
	name: string;
	/** Whether the area starts a real n8n (it does so itself, with dev/n8n). */
	needsN8n: boolean;
	run(args: string[]): Promise<SafetyRow[]>;
}

/** A row whose counts are all zero and whose pass says observed === expected. */
export function row(net: string, edge: string, expected: string, observed: string, counts: Partial<Pick<SafetyRow, 'moneyMoved' | 'duplicateStarts' | 'falseSuccesses' | 'blindWindows'>> = {}): SafetyRow {
	const r = { moneyMoved: 0, duplicateStarts: 0, falseSuccesses: 0, blindWindows: 0, ...counts };
	const zero = r.moneyMoved === 0 && r.duplicateStarts === 0 && r.falseSuccesses === 0 && r.blindWindows === 0;
	return { net, edge, expected, observed, ...r, pass: zero && observed === expected };
}
