/**
 * `npm run bench -- money-drill [--count=50] [--ops=bank,bulk] [--profiles=default,all] [--faults=503-before]`:
 * the money-safety drill of issue 14, grown from transfer-drill. Every
 * money-moving operation of the PayOnUs node (bank / mobile money / EFT
 * transfer, bulk transfer, card charge, tokenized card charge, mobile money
 * collection) x every sandbox behaviour profile (sandbox/profiles.ts
 * TEST_PROFILES) x every fault:
 *   drop-after-20 / drop-after-50  the POST is processed (money moves), then
 *                                  its answer is dropped, at that rate
 *   503-before                     the POST answers 503 before processing, every second call
 *   reused-reference               each reference is first used by an EARLIER,
 *                                  different movement (other amount/account),
 *                                  then the POST 503s half the time
 * `count` movements per cell (bulk: batches of 2 rows).
 *
 * Runs the node's HANDLERS directly (dev/moneyDrill.ts: the real
 * transport with n8n-core's request helpers, no n8n process), because a
 * real n8n run of 252 cells would not fit in 10 minutes on 2 shared cores;
 * transfer-drill keeps the real-n8n run of Create Transfer.
 *
 * Per cell, from the outputs and the sandbox ledger:
 *   ledger/intended  movements in the ledger per intended movement (goal 1.00;
 *                    reused-reference intends none: "extra" counts new ones, goal 0)
 *   falseSucc        success outputs that are not exactly the ledger's record (goal 0)
 *   unknown          "outcome unknown" errors (each names its reference)
 *   errors           other error items (reused-reference: all of them, goal = count)
 */
import type { IDataObject } from 'n8n-workflow';
import { TEST_PROFILES } from '../sandbox/profiles';
import { FAULTS, runDrillMatrix, type CellResult } from '../dev/moneyDrill';

export const description =
	'money-safety drill: every money-moving operation x sandbox profile x fault (dropped answers, 503, reused reference); ledger vs outputs';

export async function run(args: string[]): Promise<Record<string, unknown>> {
	const { count, ops, faults, cells, started } = await runDrillMatrix(args, {
		defaultCount: 50,
		profiles: TEST_PROFILES,
		faults: FAULTS,
		tag: 'md',
		label: 'profile',
	});

	const ratio = (c: CellResult) => (c.fault === 'reused-reference' ? `extra ${c.extraMovements}` : c.intended ? (c.movements / c.intended).toFixed(2) : '-');
	const table: IDataObject[] = cells.map((c) => ({
		op: c.op,
		profile: c.profile,
		fault: c.fault,
		'ledger/intended': ratio(c),
		exact: c.fault === 'reused-reference' ? '-' : `${c.exact}/${c.intended}`,
		falseSucc: c.falseSuccesses,
		unknown: c.unknown,
		errors: c.errors,
		ok: c.successes,
	}));
	console.table(table);

	// One line per op x fault over every profile (the report's table).
	const summary: IDataObject[] = [];
	for (const op of ops) {
		for (const fault of faults) {
			const group = cells.filter((c) => c.op === op.name && c.fault === fault);
			const intended = group.reduce((s, c) => s + c.intended, 0);
			const movements = group.reduce((s, c) => s + c.movements, 0);
			summary.push({
				op: op.name,
				fault,
				profiles: group.length,
				'ledger/intended':
					fault === 'reused-reference' ? `extra ${group.reduce((s, c) => s + c.extraMovements, 0)}` : intended ? (movements / intended).toFixed(3) : '-',
				falseSucc: group.reduce((s, c) => s + c.falseSuccesses, 0),
				unknown: group.reduce((s, c) => s + c.unknown, 0),
				unknownUnnamed: group.reduce((s, c) => s + c.unknownWithoutReference, 0),
				newRefAdvice: group.reduce((s, c) => s + c.newReferenceAdvice, 0),
				errors: group.reduce((s, c) => s + c.errors, 0),
				ok: group.reduce((s, c) => s + c.successes, 0),
			});
		}
	}
	console.log('\nSummary over all profiles (per op x fault):');
	console.table(summary);
	const totals = {
		cells: cells.length,
		movementsPerCell: count,
		intended: cells.reduce((s, c) => s + c.intended, 0),
		movements: cells.reduce((s, c) => s + c.movements, 0),
		extraMovements: cells.reduce((s, c) => s + c.extraMovements, 0),
		falseSuccesses: cells.reduce((s, c) => s + c.falseSuccesses, 0),
		unknown: cells.reduce((s, c) => s + c.unknown, 0),
		unknownWithoutReference: cells.reduce((s, c) => s + c.unknownWithoutReference, 0),
		newReferenceAdvice: cells.reduce((s, c) => s + c.newReferenceAdvice, 0),
		seconds: Number(((Date.now() - started) / 1000).toFixed(1)),
		mode: 'handlers driven directly through the real transport (no n8n process)',
	};
	console.log(JSON.stringify(totals));
	return { totals, summary, cells };
}
