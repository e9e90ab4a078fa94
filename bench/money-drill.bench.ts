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
import { SandboxClient } from '../sandbox/client';
import { startSandbox } from '../sandbox/server';
import { TEST_PROFILES } from '../sandbox/profiles';
import { FAULTS, MONEY_OPS, runCell, type CellResult, type Fault } from '../dev/moneyDrill';

export const description =
	'money-safety drill: every money-moving operation x sandbox profile x fault (dropped answers, 503, reused reference); ledger vs outputs';

function arg(args: string[], name: string, fallback: string): string {
	return args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
}

export async function run(args: string[]): Promise<Record<string, unknown>> {
	const count = Number(arg(args, 'count', '50'));
	const opNames = arg(args, 'ops', '');
	const profileNames = arg(args, 'profiles', '');
	const faultNames = arg(args, 'faults', '');
	const ops = opNames ? MONEY_OPS.filter((o) => opNames.split(',').some((n) => o.name.toLowerCase().startsWith(n.toLowerCase()))) : MONEY_OPS;
	const profiles = profileNames ? TEST_PROFILES.filter((p) => profileNames.split(',').includes(p.name)) : TEST_PROFILES;
	const faults = (faultNames ? faultNames.split(',') : FAULTS) as Fault[];
	const handle = await startSandbox({
		port: 0,
		config: { tokenCallsPerMinute: 1_000_000, transferDelayMs: 2, momoAutoDelayMs: 2, requestLogLimit: 100 },
	});
	const cells: CellResult[] = [];
	const started = Date.now();
	try {
		for (const profile of profiles) {
			await new SandboxClient(handle.url).setProfiles(profile.profiles);
			for (const op of ops) {
				for (const fault of faults) {
					const tag = `md-${profile.name}-${op.name.replace(/\W/g, '')}-${fault}-${Date.now().toString(36)}`;
					const cell = await runCell(handle.url, op, profile.name, fault, count, tag);
					cells.push(cell);
				}
			}
			console.log(`  profile ${profile.name}: done (${((Date.now() - started) / 1000).toFixed(1)} s)`);
		}
	} finally {
		await handle.stop();
	}

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
