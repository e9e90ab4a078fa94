/**
 * `npm run bench -- answer-shapes [--count=10] [--ops=bank,bulk] [--profiles=default,empty-success] [--faults=none]`:
 * rules 1 and 2 of docs/reliability.md measured (issue 29). Every
 * money-moving operation (dev/moneyDrill.ts MONEY_OPS: bank / mobile money /
 * EFT transfer, bulk transfer, card charge, stored-card charge, mobile money
 * and EFT payins) x every answer shape the spec allows or leaves open
 * (sandbox/profiles.ts ANSWER_SHAPE_TEST_PROFILES: the spec's shape, errors
 * stated in HTTP 200 bodies with no status, a responseCode, a status as
 * text, an empty success, a success without service reference, a reused
 * reference answered with the existing record) x faults (none, answers
 * dropped after processing 20 %, 503 before processing half the time, a
 * reference held by an earlier different movement), through the real
 * transport against the sandbox; outputs compared with the ledger.
 *
 * Goals, per cell: falseSucc 0 (a success output that is not exactly the
 * ledger's movement), doubles 0 (an intended movement made twice), extra 0
 * (reused-reference: nothing new moves), unnamed 0 (an "outcome unknown"
 * that does not name its reference).
 */
import type { IDataObject } from 'n8n-workflow';
import { ANSWER_SHAPE_TEST_PROFILES } from '../sandbox/profiles';
import { runDrillMatrix, SHAPE_FAULTS, type CellResult } from '../dev/moneyDrill';

export const description =
	'answer-shapes drill: every money-moving operation x answer shape (spec and unspecified) x fault; false successes, double movements, unknown outcomes with their reference';

export async function run(args: string[]): Promise<Record<string, unknown>> {
	const { count, ops, profiles: shapes, faults, cells, started } = await runDrillMatrix(args, {
		defaultCount: 10,
		profiles: ANSWER_SHAPE_TEST_PROFILES,
		faults: SHAPE_FAULTS,
		tag: 'as',
		label: 'shape',
	});

	// One line per answer shape x fault over every operation (the report's table).
	const sum = (group: CellResult[], f: (c: CellResult) => number) => group.reduce((s, c) => s + f(c), 0);
	/** What a group of cells ended in (both tables). */
	const outcomes = (group: CellResult[]): IDataObject => ({
		doubles: sum(group, (c) => c.doubleMovements),
		falseSucc: sum(group, (c) => c.falseSuccesses),
		ok: sum(group, (c) => c.successes),
		unknown: sum(group, (c) => c.unknown),
		unnamed: sum(group, (c) => c.unknownWithoutReference),
		errors: sum(group, (c) => c.errors),
	});
	const table: IDataObject[] = [];
	for (const shape of shapes) {
		for (const fault of faults) {
			const group = cells.filter((c) => c.profile === shape.name && c.fault === fault);
			table.push({
				shape: shape.name,
				fault,
				items: group.length * count,
				moved: fault === 'reused-reference' ? `extra ${sum(group, (c) => c.extraMovements)}` : `${sum(group, (c) => c.movements)}/${sum(group, (c) => c.intended)}`,
				...outcomes(group),
			});
		}
	}
	console.table(table);
	const perOp: IDataObject[] = ops.map((op) => {
		const group = cells.filter((c) => c.op === op.name);
		return {
			op: op.name,
			cells: group.length,
			...outcomes(group),
		};
	});
	console.log('\nPer operation (every shape and fault):');
	console.table(perOp);
	const totals = {
		cells: cells.length,
		itemsPerCell: count,
		items: cells.length * count,
		falseSuccesses: sum(cells, (c) => c.falseSuccesses),
		doubleMovements: sum(cells, (c) => c.doubleMovements),
		extraMovements: sum(cells, (c) => c.extraMovements),
		unknown: sum(cells, (c) => c.unknown),
		unknownWithoutReference: sum(cells, (c) => c.unknownWithoutReference),
		newReferenceAdvice: sum(cells, (c) => c.newReferenceAdvice),
		seconds: Number(((Date.now() - started) / 1000).toFixed(1)),
	};
	console.log(JSON.stringify(totals));
	const details = cells.flatMap((c) => c.details.filter((d) => d.startsWith('false success')).map((d) => `${c.profile} ${c.op} ${c.fault}: ${d}`));
	if (details.length > 0) console.log(details.slice(0, 20).join('\n'));
	return { totals, table, perOp, cells };
}
