/**
 * Safety-edges area "tokenStorm" (issue 36, rule 4 at our own door): the
 * token drill's rows (bench/token-drill.bench.ts) in one real n8n (one
 * process, SQLite) against the sandbox's token refusal control. 50 items of
 * Create Transfer and of Get Payment (Continue On Fail) when the service
 * refuses every token, and when it refuses one (a stored token revoked once,
 * or the first new token refused). Money moved counts the transfers made;
 * false successes the items reported ok while every token was refused. The
 * figures of each row (token calls, calls sent, 401s, seconds) are printed.
 */
import { startN8n } from '../../dev/n8n';
import { drillRow, type DrillCase, type DrillOp, type DrillRow } from '../token-drill.bench';
import { row, type SafetyArea, type SafetyRow } from './types';

const NET = 'Token breaker (rule 4, our own door)';
const ITEMS = 50;
const OPS: Array<[DrillOp, string]> = [
	['createTransfer', 'Create Transfer'],
	['getPayment', 'Get Payment'],
];

/** The expected text of each part, or what was seen instead. */
function part(met: boolean, expected: string, seen: string): string {
	return met ? expected : seen;
}

function stormRow(r: DrillRow, name: string): SafetyRow {
	const parts: Array<[boolean, string, string]> = [
		[r.errorItems === r.items && r.distinctErrors === 1, `all ${r.items} items fail with one error`, `${r.errorItems} error items, ${r.distinctErrors} messages`],
		[r.saysWhatToCheck, 'it says what to check', 'it does not say what to check'],
		[r.tokenCalls <= 3, 'token calls ≤ 3', `${r.tokenCalls} token calls`],
		[r.seconds < 60, 'run < 60 s', `run ${r.seconds} s`],
	];
	return row(
		NET,
		`every token refused (API client off, or another installation on the client): ${r.items} items of ${name}`,
		parts.map(([, e]) => e).join('; '),
		parts.map(([m, e, s]) => part(m, e, s)).join('; '),
		{ moneyMoved: r.transfersMade, falseSuccesses: r.ok },
	);
}

function recoveryRow(r: DrillRow, name: string, edge: string, calls: number): SafetyRow {
	const parts: Array<[boolean, string, string]> = [
		[r.ok === r.items, `all ${r.items} items ok`, `${r.ok} of ${r.items} items ok`],
		[r.tokenCalls === calls, `${calls} token call${calls === 1 ? '' : 's'}`, `${r.tokenCalls} token calls`],
	];
	return row(NET, `${edge}: ${r.items} items of ${name}`, parts.map(([, e]) => e).join('; '), parts.map(([m, e, s]) => part(m, e, s)).join('; '));
}

export const area: SafetyArea = {
	name: 'tokenStorm',
	needsN8n: true,
	async run(): Promise<SafetyRow[]> {
		const n8n = await startN8n();
		const rows: SafetyRow[] = [];
		try {
			const cases: Array<[DrillCase, (r: DrillRow, name: string) => SafetyRow]> = [
				['every', stormRow],
				['one', (r, name) => recoveryRow(r, name, 'one token refused (a stored token revoked once by another process)', 1)],
				['next', (r, name) => recoveryRow(r, name, 'the first new token refused (another installation took one right after)', 2)],
			];
			for (const [drillCase, toRow] of cases) {
				for (const [op, name] of OPS) {
					const r = await drillRow(n8n, drillCase, op, ITEMS);
					console.log(JSON.stringify(r));
					rows.push(toRow(r, name));
				}
			}
		} finally {
			await n8n.stop();
		}
		return rows;
	},
};
