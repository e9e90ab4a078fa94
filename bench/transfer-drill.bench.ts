/**
 * `npm run bench -- transfer-drill [--count=1000] [--rates=0.2,0.5] [--modes=after,before,429]
 *   [--profiles=default,all,rate-limited]`: the
 * money-safety drill. A real n8n runs ONE workflow (Manual Trigger -> Code
 * making N items -> PayOnUs Create Transfer, each item a unique reference)
 * against the sandbox, whose POST /api/v1/transfer-requests/bank-transfer
 * drops the connection AFTER processing at the given rate (seeded, so a run
 * is reproducible). Afterwards the sandbox ledger must hold each reference
 * exactly once: none lost, none doubled. Rates run one after the other in the
 * same n8n and sandbox, side by side in one table.
 *
 * Counted per rate, from the sandbox's request log, the ledger and the items:
 *   created   references whose first POST was answered normally
 *   dropped   POSTs whose answer was dropped by the fault
 *   recovered output items flagged recoveredByLookup (found by reference, not resent)
 *   resent    references POSTed more than once
 *   conflicts 409 answers on the transfer POST
 *   duplicates references held by more than one transfer in the ledger
 *   lost      references in no transfer of the ledger (the item must then carry an error)
 *   silentLoss lost references whose item carries no error (must be 0)
 *   errors    output items carrying an error
 */
import type { IDataObject } from 'n8n-workflow';
import { startSandbox } from '../sandbox/server';
import { nodeItems } from '../dev/n8n/execution';
import { startN8n } from '../dev/n8n';
import { SandboxClient } from '../sandbox/client';
import { parseProfiles, TEST_PROFILES } from '../sandbox/profiles';
import { business, NODE, payOnUsWorkflow } from '../dev/workflows';
import { createPayOnUsCredential } from '../dev/sandboxCredential';

export const description = 'money-safety drill: N transfers in one n8n workflow with dropped answers; ledger checked per reference';

const PATH = '/api/v1/transfer-requests/bank-transfer';

function arg(args: string[], name: string, fallback: string): string {
	return args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
}

export async function run(args: string[]): Promise<Record<string, unknown>> {
	const count = Number(arg(args, 'count', '1000'));
	const rates = arg(args, 'rates', '0.2,0.5').split(',').map(Number);
	// after (the brief's drill): processed, answer dropped -> recovered by lookup.
	// before: dropped before processing -> lookup finds nothing -> resent once.
	// 429: answered 429 before processing (a storm at `rate`) -> lookup, then resent after Retry-After.
	const modes = arg(args, 'modes', 'after').split(',') as Array<'after' | 'before' | '429'>;
	// --profiles=default,all,...: sandbox profiles (sandbox/profiles.ts TEST_PROFILES names, or a single profile name), each its rows.
	const profileNames = arg(args, 'profiles', 'default').split(',');
	const handle = await startSandbox({ port: 0, config: { requestLogLimit: 20000, tokenCallsPerMinute: 1_000_000 } });
	const sb = new SandboxClient(handle.url);
	const n8n = await startN8n();
	const rows: IDataObject[] = [];
	try {
		const credentialId = await createPayOnUsCredential(n8n, handle.url, 'PayOnUs drill');
		for (const profile of profileNames) for (const mode of modes) for (const rate of rates) {
			await sb.setProfiles(TEST_PROFILES.find((p) => p.name === profile)?.profiles ?? parseProfiles(profile));
			const tag = `drill-${mode}-${String(rate).replace('.', '')}-${Date.now().toString(36)}`;
			await sb.control('DELETE', '/faults');
			await sb.clearRequests();
			await sb.control('POST', '/faults', {
				method: 'POST',
				path: PATH,
				rate,
				seed: 7,
				...(mode === 'after' ? { dropAfterProcessing: true } : mode === '429' ? { status: 429, message: 'Too many requests' } : { dropBeforeProcessing: true }),
			});
			const code = `return Array.from({ length: ${count} }, (_, i) => ({ json: { reference: '${tag}-' + (i + 1) } }));`;
			const workflow = payOnUsWorkflow(
				`transfer drill ${rate}`,
				credentialId,
				{
					resource: 'payout',
					operation: 'createTransfer',
					transferType: 'WALLET_TO_BANK_ACCOUNT',
					businessId: business('BUS-2001'),
					amount: 100,
					currency: 'NGN',
					countryCode: 'NG',
					reference: '={{ $json.reference }}',
					beneficiaryBankCode: '044',
					beneficiaryAccountNumber: '9999991112',
					beneficiaryAccountName: 'Sandbox Success Beneficiary',
					narration: 'drill',
				},
				[],
				{ continueOnFail: true },
			);
			(workflow.nodes[1].parameters as IDataObject).jsCode = code;
			(workflow.nodes[2].parameters as IDataObject).verifyBeneficiaryName = false;
			const { id } = await n8n.createWorkflow(workflow);
			const started = Date.now();
			const execution = await n8n.runWorkflow(id, { timeoutMs: 30 * 60_000 });
			const seconds = (Date.now() - started) / 1000;
			const items = nodeItems(execution, NODE);

			const log = (await sb.control<IDataObject[]>('GET', `/requests?path=${encodeURIComponent(PATH)}&method=POST`)).filter(
				(r) => r.path === PATH,
			);
			const byRef = new Map<string, IDataObject[]>();
			for (const r of log) {
				const ref = String((r.body as IDataObject)?.reference);
				byRef.set(ref, [...(byRef.get(ref) ?? []), r]);
			}
			const ledger = await sb.ledger();
			const held = new Map<string, number>();
			for (const t of ledger.transfers as IDataObject[]) {
				const ref = String(t.merchantReference);
				if (ref.startsWith(`${tag}-`)) held.set(ref, (held.get(ref) ?? 0) + 1);
			}
			const expected = Array.from({ length: count }, (_, i) => `${tag}-${i + 1}`);
			const lostRefs = expected.filter((r) => !held.has(r));
			const doubled = [...held.entries()].filter(([, n]) => n > 1).map(([r]) => r);
			const row = {
				profile,
				fault: mode === '429' ? '429-before' : `drop-${mode}`,
				rate,
				transfers: count,
				seconds: Number(seconds.toFixed(1)),
				created: expected.filter((r) => {
					const first = byRef.get(r)?.[0];
					return first && first.fault === null && first.status === 200;
				}).length,
				dropped: log.filter((r) => String(r.fault ?? '').startsWith('drop-')).length,
				recovered: items.filter((i) => i.recoveredByLookup === true).length,
				resent: [...byRef.values()].filter((l) => l.length > 1).length,
				conflicts: log.filter((r) => r.status === 409).length,
				tooMany: log.filter((r) => r.status === 429).length,
				// A success whose reference is not exactly once in the ledger.
				falseSuccesses: expected.filter((r, i) => items[i]?.error === undefined && held.get(r) !== 1).length,
				duplicates: doubled.length,
				lost: lostRefs.length,
				// Missing from the ledger AND no error on its item: a loss nobody was told about.
				silentLoss: lostRefs.filter((r) => items[Number(r.slice(tag.length + 1)) - 1]?.error === undefined).length,
				errors: items.filter((i) => i.error !== undefined).length,
				outputItems: items.length,
				ledgerOnce: held.size === count && doubled.length === 0,
			};
			rows.push({ ...row, lostSample: lostRefs.slice(0, 5), doubledSample: doubled.slice(0, 5), errorSample: items.filter((i) => i.error).slice(0, 3).map((i) => i.error) });
			console.log(`  ${profile} ${row.fault} rate ${rate}: ${JSON.stringify(row)}`);
			await n8n.deleteWorkflow(id).catch(() => undefined);
		}
	} finally {
		await sb.setProfiles([]).catch(() => undefined);
		await sb.control('DELETE', '/faults').catch(() => undefined);
		await n8n.stop();
		await handle.stop();
	}
	console.table(rows.map(({ lostSample: _l, doubledSample: _d, errorSample: _e, ...r }) => r));
	return { count, rates, modes, profiles: profileNames, rows };
}
