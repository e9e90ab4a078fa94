/**
 * Issue 36, rule 4 at our own door: the token storm. Through the real
 * transport (n8n-core's request helpers, a credentials helper that behaves
 * like n8n's, dev/inProcessN8n.ts), the operations' handlers and the real
 * sandbox with its test control refusing tokens. Time is virtual: the
 * sandbox clock stands still and moves only with the token cache's and the
 * transport's waits, so a minute of waiting costs no real time and is
 * counted (`waitedMs`).
 *
 * On the code before the breaker, a service refusing every token costs 3
 * token calls per item, each item after the first waits about a minute for
 * the token window, and each token call revokes the token of every other
 * process on the client.
 */
import type { IDataObject } from 'n8n-workflow';
import { SandboxClient } from '../../../sandbox/client';
import { startSandbox, type SandboxHandle } from '../../../sandbox/server';
import { createClient } from '../../../nodes/shared/transport';
import { tokenCache } from '../../../nodes/shared/accessToken/cache';
import { PayOnUsApi } from '../../../credentials/PayOnUsApi.credentials';
import { createTransfer } from '../../../nodes/PayOnUs/resources/payout/createTransfer';
import { getPayment } from '../../../nodes/PayOnUs/resources/payin/getPayment';
import type { OperationContext } from '../../../nodes/PayOnUs/resources/types';
import { PATHS } from '../../../nodes/shared/api/paths';
import { testCredentialValues } from '../../../nodes/shared/accessToken/credentialTest';
import type { HttpHelpers } from '../../../nodes/shared/accessToken/tokenCall';
import { CredentialStore, FakeN8n, httpRequest, sandboxCredential } from '../../../dev/inProcessN8n';

jest.setTimeout(60_000); // a generous give-up for a loaded machine; no timing is asserted through it

const ITEMS = 50;
let sb: SandboxHandle;
let control: SandboxClient;
let waitedMs = 0;

const wait = async (ms: number): Promise<void> => {
	waitedMs += ms;
	sb.state.clock.advance(ms / 1000);
};

beforeAll(async () => {
	sb = await startSandbox({ port: 0 });
	control = new SandboxClient(sb.url);
});
afterAll(async () => {
	await sb.stop();
});
beforeEach(() => {
	sb.sandbox.reset();
	sb.state.clock.freeze();
	tokenCache.reset();
	tokenCache.configure({ clock: { now: () => sb.state.clock.nowMs(), sleep: wait } });
	waitedMs = 0;
});

const stats = (client = 1) => ({ ...sb.state.clientStats(`sandbox-client-${client}`) });
const sent = (method: string, path: string) => sb.state.requestLog.filter((r) => r.method === method && r.path.startsWith(path)).length;

/** One node run: one client for all its items (as nodes/PayOnUs/run does). */
async function runClient(store: CredentialStore) {
	const n8n = new FakeN8n(store, new PayOnUsApi());
	return await createClient(n8n.context() as never, { sleep: wait });
}

function ctx(client: Awaited<ReturnType<typeof runClient>>, itemIndex: number): OperationContext {
	return { client, itemIndex, item: {}, getBinary: async () => ({ data: Buffer.alloc(0) }) };
}

const transferInput = (i: number) => {
	const r = createTransfer.schema.safeParse({
		transferType: 'WALLET_TO_BANK_ACCOUNT',
		businessId: 'BUS-2001',
		amount: 100,
		currency: 'NGN',
		countryCode: 'NG',
		reference: `storm-${i}`,
		beneficiaryBankCode: '044',
		beneficiaryAccountNumber: '9999991112',
		beneficiaryAccountName: 'Ann',
		narration: 'x',
	});
	if (!r.success) throw new Error(r.error.message);
	return r.data;
};

const outcome = async (p: Promise<unknown>) =>
	await p.then(
		(value) => ({ ok: true as const, value }),
		(error: unknown) => ({ ok: false as const, error: error as Error & { description?: string } }),
	);

/** Create Transfer for ITEMS items one after another (Money-Moving Concurrency 1, continueOnFail). */
async function transfers(store: CredentialStore) {
	const client = await runClient(store);
	const out = [];
	for (let i = 0; i < ITEMS; i++) out.push(await outcome(createTransfer.execute(ctx(client, i), transferInput(i))));
	return out;
}

describe('every token refused (API client switched off, or another installation taking a token after each of ours)', () => {
	beforeEach(async () => {
		await control.refuseAccessTokens('sandbox-client-1', 'every');
	});

	it(`${ITEMS} Create Transfer items: at most 3 token calls, the items fail at once with one error naming what to check, nothing moved`, async () => {
		const out = await transfers(new CredentialStore(sandboxCredential(sb.url)));
		expect(out.every((o) => !o.ok)).toBe(true);
		const errors = out.map((o) => (o.ok ? undefined : o.error));
		expect(new Set(errors.map((e) => e?.message)).size).toBe(1);
		expect(errors[0]?.message).toBe('PayOnUs refuses every new access token for this API client');
		expect(errors[ITEMS - 1]?.description).toMatch(/API client is enabled on the PayOnUs dashboard/);
		expect(stats().tokenCalls).toBeLessThanOrEqual(3);
		expect(stats().rateLimited).toBe(0);
		// Only the first item sent anything (refused before processing); the others sent nothing.
		expect(sent('POST', PATHS.bankTransfer)).toBeLessThanOrEqual(3);
		expect(sb.state.transfers.size).toBe(0);
		// No minute-long wait for the token window, item after item.
		expect(waitedMs).toBeLessThan(10_000);
	});

	it(`${ITEMS} Get Payment items in flight at once: at most 3 token calls, every item gets the error`, async () => {
		const client = await runClient(new CredentialStore(sandboxCredential(sb.url)));
		const input = { businessId: 'BUS-2001', onusReference: 'ONUS-NUB-0000000000001-28112026-090000' };
		const first = await outcome(getPayment.execute(ctx(client, 0), input));
		const rest = await Promise.all(Array.from({ length: ITEMS - 1 }, async (_, i) => await outcome(getPayment.execute(ctx(client, i + 1), input))));
		const all = [first, ...rest];
		expect(all.every((o) => !o.ok && o.error.message === 'PayOnUs refuses every new access token for this API client')).toBe(true);
		expect(stats().tokenCalls).toBeLessThanOrEqual(3);
		expect(sent('GET', '/api/v1/payment-requests')).toBeLessThanOrEqual(3);
		expect(waitedMs).toBeLessThan(10_000);
	});

	it('a stored token another process revoked, then every new token refused: still at most 3 token calls', async () => {
		await control.refuseAccessTokens('sandbox-client-1', 'none');
		const store = new CredentialStore(sandboxCredential(sb.url));
		await (await runClient(store)).request({ method: 'GET', path: '/api/v1/merchants/MER-1001/wallets' });
		const firstRunCalls = stats().tokenCalls;
		expect(firstRunCalls).toBe(1);
		await control.refuseAccessTokens('sandbox-client-1', 'every');
		await control.expireAccessToken('sandbox-client-1');
		tokenCache.reset(); // another n8n process: knows nothing yet
		tokenCache.configure({ clock: { now: () => sb.state.clock.nowMs(), sleep: wait } });
		const out = await transfers(store);
		expect(out.every((o) => !o.ok)).toBe(true);
		expect(stats().tokenCalls - firstRunCalls).toBeLessThanOrEqual(3);
	});

	it('the next run within the token window makes no token call; after the window, one token call tries again', async () => {
		await transfers(new CredentialStore(sandboxCredential(sb.url)));
		const after1 = stats().tokenCalls;
		const second = await transfers(new CredentialStore(sandboxCredential(sb.url)));
		expect(second.every((o) => !o.ok)).toBe(true);
		expect(stats().tokenCalls).toBe(after1);
		await wait(61_000);
		await transfers(new CredentialStore(sandboxCredential(sb.url)));
		expect(stats().tokenCalls).toBe(after1 + 1);
	});

	it('the credential test is not held: once the API client is fixed, its accepted token ends the hold', async () => {
		await transfers(new CredentialStore(sandboxCredential(sb.url)));
		expect(stats().tokenCalls).toBe(2);
		await control.refuseAccessTokens('sandbox-client-1', 'none'); // the merchant switched the API client back on
		const test = await testCredentialValues({ httpRequest } as unknown as HttpHelpers, sandboxCredential(sb.url));
		expect(test.status).toBe('OK');
		expect(stats().tokenCalls).toBe(3);
		// The test's token revoked once more (another process): replaced at once, not held.
		await control.expireAccessToken('sandbox-client-1');
		const out = await transfers(new CredentialStore(sandboxCredential(sb.url)));
		expect(out.filter((o) => o.ok)).toHaveLength(ITEMS);
		// (The fourth token call of the minute waits for the rate window: 3 a minute.)
		expect(stats().tokenCalls).toBe(4);
		expect(stats().rateLimited).toBe(0);
	});

	it('per credential: another API client is not held', async () => {
		await transfers(new CredentialStore(sandboxCredential(sb.url)));
		const client = await runClient(new CredentialStore(sandboxCredential(sb.url, 2)));
		const ok = await outcome(client.request<IDataObject[]>({ method: 'GET', path: '/api/v1/merchants/MER-1001/wallets' }));
		expect(ok.ok).toBe(true);
		expect(stats(2).tokenCalls).toBe(1);
	});
});

describe('one token refused: still recovered by one new token', () => {
	it(`a stored token revoked once by another process: ${ITEMS} Create Transfer items all succeed, one extra token call`, async () => {
		const store = new CredentialStore(sandboxCredential(sb.url));
		await (await runClient(store)).request({ method: 'GET', path: '/api/v1/merchants/MER-1001/wallets' });
		expect(stats().tokenCalls).toBe(1);
		await control.expireAccessToken('sandbox-client-1');
		const out = await transfers(store);
		expect(out.filter((o) => o.ok)).toHaveLength(ITEMS);
		expect(stats().tokenCalls).toBe(2);
		expect(stats().unauthorized).toBe(1);
		expect(sb.state.transfers.size).toBe(ITEMS);
	});

	it(`the first new token refused (another installation took one right after): one more token call, ${ITEMS} items succeed`, async () => {
		await control.refuseAccessTokens('sandbox-client-1', 'next');
		const out = await transfers(new CredentialStore(sandboxCredential(sb.url)));
		expect(out.filter((o) => o.ok)).toHaveLength(ITEMS);
		expect(stats().tokenCalls).toBe(2);
		expect(sb.state.transfers.size).toBe(ITEMS);
	});
});
