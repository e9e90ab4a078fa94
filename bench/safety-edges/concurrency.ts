/**
 * Safety edges of running money-moving items together (issue 22 point 6,
 * issue 24): the PayOnUs node's execute() with the real transport (n8n-core's
 * request helpers, as dev/moneyDrill.ts) against an in-process sandbox;
 * the ledger decides. No edge here is n8n's own, so no n8n is started.
 *  - two items, one reference, the first answered 503 (before processing,
 *    after 300 ms) while the second lands: at Money-Moving Concurrency 2
 *    and at its default; the second item reports the first one's transfer
 *    as already done (outcome alreadyDone), never a transfer of its own;
 *  - two items, one card token (two references), the charge held 300 ms:
 *    never in flight together;
 *  - a 429 storm (half the transfer POSTs answered 429 before processing) at
 *    the default: each reference at most once in the ledger, every
 *    success its own transfer.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { PayOnUsApi } from '../../credentials/PayOnUsApi.credentials';
import { PayOnUs } from '../../nodes/PayOnUs/PayOnUs.node';
import { MONEY_MOVING_CONCURRENCY_DEFAULT } from '../../nodes/PayOnUs/run/concurrency';
import { startSandbox } from '../../sandbox/server';
import { SandboxClient } from '../../sandbox/client';
import { MONEY_OPS } from '../../dev/moneyDrill';
import { CredentialStore, FakeN8n, sandboxCredential } from '../../dev/inProcessN8n';
import { row, type SafetyArea, type SafetyRow } from './types';

const TRANSFER = '/api/v1/transfer-requests/bank-transfer';
const CHARGE = '/api/v1/card-payments/with-token';

/** Calls in flight to a path, as the node sends them (counted around n8n-core's request helper). */
const watch = { path: '', inFlight: 0, peak: 0 };

function context(url: string, items: IDataObject[], params: (i: number) => IDataObject): IExecuteFunctions {
	const n8n = new FakeN8n(new CredentialStore(sandboxCredential(url)), new PayOnUsApi());
	const base = n8n.context();
	const node = (base.getNode as () => IDataObject)();
	const helpers = base.helpers as { httpRequestWithAuthentication: (this: unknown, type: string, o: { url?: string }, extra?: IDataObject) => Promise<unknown> };
	const send = helpers.httpRequestWithAuthentication;
	const watched = {
		...helpers,
		async httpRequestWithAuthentication(this: unknown, type: string, o: { url?: string }, extra?: IDataObject) {
			const counted = watch.path !== '' && String(o.url ?? '').includes(watch.path);
			if (counted) watch.peak = Math.max(watch.peak, ++watch.inFlight);
			try {
				return await send.call(this, type, o, extra);
			} finally {
				if (counted) watch.inFlight--;
			}
		},
	};
	return {
		...base,
		helpers: watched,
		getNode: () => node,
		getInputData: () => items.map((json) => ({ json })),
		getNodeParameter: (name: string, i: number, fallback?: unknown) => {
			const p = params(i);
			return name in p ? p[name] : fallback;
		},
		continueOnFail: () => true,
		getExecutionId: () => 'safety-edges',
	} as unknown as IExecuteFunctions;
}

const transfer = (reference: string, options?: IDataObject): IDataObject => ({
	resource: 'payout',
	operation: 'createTransfer',
	transferType: 'WALLET_TO_BANK_ACCOUNT',
	businessId: 'BUS-2001',
	reference,
	amount: 100,
	currency: 'NGN',
	countryCode: 'NG',
	beneficiaryBankCode: '044',
	beneficiaryAccountNumber: '9999991112',
	beneficiaryAccountName: 'Sandbox Success Beneficiary',
	narration: 'safety edge',
	verifyBeneficiaryName: false,
	...(options ? { options } : {}),
});

async function execute(ctx: IExecuteFunctions): Promise<IDataObject[]> {
	const [out] = (await new PayOnUs().execute.call(ctx)) as INodeExecutionData[][];
	return out.map((o) => o.json);
}

export const area: SafetyArea = {
	name: 'concurrency',
	needsN8n: false,
	async run(): Promise<SafetyRow[]> {
		const sb = await startSandbox({ port: 0, config: { tokenCallsPerMinute: 1_000_000, transferDelayMs: 2, requestLogLimit: 5000 } });
		const control = new SandboxClient(sb.url);
		const rows: SafetyRow[] = [];
		const tag = Date.now().toString(36);
		try {
			// Two items, one reference, 503 on the first.
			for (const [label, name, options] of [
				['Money-Moving Concurrency 2', 'two', { moneyMovingConcurrency: 2 }],
				[`the default (${MONEY_MOVING_CONCURRENCY_DEFAULT})`, 'default', undefined],
			] as const) {
				const reference = `se-conc-${name}-${tag}`;
				await control.control('DELETE', '/faults');
				await control.control('POST', '/faults', { method: 'POST', path: TRANSFER, status: 503, every: 1, times: 1, latencyMs: 300 });
				const out = await execute(context(sb.url, [{}, {}], () => transfer(reference, options)));
				await control.control('DELETE', '/faults');
				const made = ((await control.ledger()).transfers as IDataObject[]).filter((t) => t.merchantReference === reference);
				// Successes that claim a transfer as made by them (an item marked alreadyDone reports an existing one).
				const successes = out.filter((j) => !('error' in j) && j.outcome !== 'alreadyDone');
				const own = successes.filter((j) => made.some((t) => t.onusReference === j.onusReference));
				// The second item names the one transfer as already done (or as another item's), never as its own success.
				const second = out[1] ?? {};
				const duplicateReported =
					(second.outcome === 'alreadyDone' && second.duplicateReference === true && made.length === 1 && second.onusReference === made[0].onusReference) ||
					/^Duplicate of item 0: /.test(String(second.error ?? ''));
				rows.push(
					row(
						'Same reference, one outcome',
						`two items, one reference, 503 on the first; ${label}`,
						'1 transfer; item 1 success; item 2 reports the duplicate',
						`${made.length} transfer${made.length === 1 ? '' : 's'}; ${
							successes.length === 1 && !('error' in out[0]) ? 'item 1 success' : `${successes.length} successes`
						}; item 2 ${duplicateReported ? 'reports the duplicate' : `reports ${'error' in out[1] ? String(out[1].error) : 'a success of its own'}`}`,
						{ moneyMoved: Math.max(0, made.length - 1), falseSuccesses: Math.max(0, successes.length - 1) + (successes.length - own.length) },
					),
				);
			}

			// Two items, one card token (two references): never in flight together.
			const env: IDataObject & { url: string } = { url: sb.url };
			const charge = MONEY_OPS.find((o) => o.name === 'tokenized charge')!;
			await charge.setup!(env as never);
			await control.control('POST', '/faults', { method: 'POST', path: CHARGE, latencyMs: 300 });
			await control.clearRequests();
			Object.assign(watch, { path: CHARGE, inFlight: 0, peak: 0 });
			const refs = [`se-card-a-${tag}`, `se-card-b-${tag}`];
			const chargeParams = (i: number): IDataObject => ({
				resource: 'payin',
				operation: 'chargeTokenizedCard',
				businessId: 'BUS-2001',
				cardTokenId: env.cardTokenId,
				amount: 300 + i,
				reference: refs[i],
				additionalFields: {},
			});
			const charged = await execute(context(sb.url, [{}, {}], chargeParams));
			await control.control('DELETE', '/faults');
			const overlap = watch.peak > 1;
			watch.path = '';
			const payins = ((await control.ledger()).payins as IDataObject[]).filter((p) => refs.includes(String(p.reference ?? p.merchantReference)));
			rows.push(
				row(
					'Same card token, one at a time',
					'two items, one card token, two references; the default',
					'2 charges, one after the other, 2 successes',
					`${payins.length} charge${payins.length === 1 ? '' : 's'}, ${overlap ? `${watch.peak} in flight together` : 'one after the other'}, ${charged.filter((j) => !('error' in j)).length} success${charged.filter((j) => !('error' in j)).length === 1 ? '' : 'es'}`,
				),
			);

			// A 429 storm at the new default.
			const count = 40;
			const storm = Array.from({ length: count }, (_, i) => `se-storm-${tag}-${i}`);
			await control.control('POST', '/faults', { method: 'POST', path: TRANSFER, status: 429, rate: 0.5, seed: 11 });
			await control.clearRequests();
			const stormOut = await execute(context(sb.url, storm.map(() => ({})), (i) => transfer(storm[i])));
			await control.control('DELETE', '/faults');
			const ledger = (await control.ledger()).transfers as IDataObject[];
			let duplicates = 0;
			let falseSuccesses = 0;
			let failed = 0;
			storm.forEach((reference, i) => {
				const made = ledger.filter((t) => t.merchantReference === reference);
				if (made.length > 1) duplicates += made.length - 1;
				const j = stormOut[i];
				if ('error' in j) failed++;
				else if (made.length !== 1 || made[0].onusReference !== j.onusReference) falseSuccesses++;
			});
			const tooMany = (await control.requests({ path: TRANSFER })).filter((e) => e.status === 429).length;
			rows.push(
				row(
					'429 storm, exactly once',
					`${count} transfers, half the POSTs answered 429; the default (${MONEY_MOVING_CONCURRENCY_DEFAULT})`,
					'0 duplicates, 0 false successes',
					`0 duplicates, 0 false successes`,
					{ moneyMoved: duplicates, falseSuccesses },
				),
			);
			rows[rows.length - 1].observed = `${duplicates} duplicates, ${falseSuccesses} false successes (${tooMany} 429s; ${count - failed} done, ${failed} failed with nothing made)`;
			rows[rows.length - 1].expected = `0 duplicates, 0 false successes (${tooMany} 429s; ${count - failed} done, ${failed} failed with nothing made)`;
			rows[rows.length - 1].pass = duplicates === 0 && falseSuccesses === 0 && failed === 0;
		} finally {
			await control.control('DELETE', '/faults').catch(() => undefined);
			await sb.stop();
		}
		return rows;
	},
};
