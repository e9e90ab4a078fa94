/**
 * Reads against a service that pushes back (sandbox profiles rate-limited and
 * slows-under-load), through the real transport (n8n-core's request helpers)
 * and its adaptive limiter: 200 reads started at once all succeed; the
 * limiter halves on the 429s/503s and waits the Retry-After instead of
 * failing the reads. Counts only: no timing assertions.
 */
import type { IDataObject } from 'n8n-workflow';
import { PayOnUsApi } from '../../../credentials/PayOnUsApi.credentials';
import { AdaptiveLimiter, createClient } from '../../../nodes/shared/transport';
import { startSandbox, type SandboxHandle } from '../../../sandbox/server';
import { SandboxClient } from '../../../sandbox/client';
import { RATE_LIMIT_PER_SECOND } from '../../../sandbox/profiles';
import { CredentialStore, FakeN8n, sandboxCredential } from '../../../dev/inProcessN8n';

jest.setTimeout(120_000);

let sb: SandboxHandle;
beforeAll(async () => {
	sb = await startSandbox({ port: 0, config: { tokenCallsPerMinute: 1_000_000, requestLogLimit: 5000 } });
});
afterAll(async () => {
	await sb.stop();
});

const PATH = '/api/v1/merchants/MER-1001/wallets';

async function readsAtOnce(profiles: string[], count: number) {
	const control = new SandboxClient(sb.url);
	await control.setProfiles(profiles);
	await control.clearRequests();
	const n8n = new FakeN8n(new CredentialStore(sandboxCredential(sb.url)), new PayOnUsApi());
	const limiter = new AdaptiveLimiter({ initial: 8, ceiling: 128 });
	// What the transport told the limiter of each pushed-back call (a 429 is a quota, a 503 is not).
	const pushBacks: Array<{ pushBackMs: number; quota?: boolean }> = [];
	const release = limiter.release.bind(limiter);
	limiter.release = (seq, outcome) => {
		if ('pushBackMs' in outcome) pushBacks.push(outcome);
		release(seq, outcome);
	};
	const client = await createClient(n8n.context() as never, { limiter });
	const results = await Promise.allSettled(
		Array.from({ length: count }, async () => await client.request<IDataObject>({ method: 'GET', path: PATH })),
	);
	const log = (await control.requests({ path: PATH })).filter((e) => e.path === PATH);
	await control.setProfiles([]);
	return {
		failed: results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)).slice(0, 3),
		ok: results.filter((r) => r.status === 'fulfilled').length,
		pushedBack: log.filter((e) => e.status === 429 || e.status === 503).length,
		calls: log.length,
		limiter,
		pushBacks,
	};
}

describe('reads against a service that pushes back', () => {
	it(`rate-limited (${RATE_LIMIT_PER_SECOND}/s): every read succeeds; the limiter halves and waits, every extra call a 429`, async () => {
		const r = await readsAtOnce(['rate-limited'], 200);
		expect(r.failed).toEqual([]);
		expect(r.ok).toBe(200);
		expect(r.pushedBack).toBeGreaterThan(0);
		expect(r.limiter.stats.halvings).toBeGreaterThan(0);
		// Every extra call was a pushed-back one (no other retries).
		expect(r.calls).toBe(200 + r.pushedBack);
		// Each 429 reached the limiter as a quota (with its Retry-After where n8n keeps the answer's headers: 2.41, not this n8n-core 2.8).
		expect(r.pushBacks.length).toBe(r.pushedBack);
		expect(r.pushBacks.every((p) => p.quota === true)).toBe(true);
	});

	it('slows-under-load (503 when overloaded): every read succeeds', async () => {
		const r = await readsAtOnce(['slows-under-load'], 200);
		expect(r.failed).toEqual([]);
		expect(r.ok).toBe(200);
		// A 503 is overload, never a quota.
		expect(r.pushBacks.filter((p) => p.quota === true)).toEqual([]);
	});
});

describe("one hold: a pause of the run's limiter", () => {
	it('holds every call of the client (a read, a list walked page by page) until it ends: none reaches the service before', async () => {
		const control = new SandboxClient(sb.url);
		await control.setProfiles([]);
		await control.clearRequests();
		// A clock that moves only when told: nothing passes the hold before `release`.
		const waits: Array<() => void> = [];
		let t = 0;
		const clock = { now: () => t, wait: async () => await new Promise<void>((resolve) => waits.push(resolve)) };
		const limiter = new AdaptiveLimiter({ initial: 8, ceiling: 8, clock });
		const n8n = new FakeN8n(new CredentialStore(sandboxCredential(sb.url)), new PayOnUsApi());
		const client = await createClient(n8n.context() as never, { limiter, sleep: limiter.pause });
		const paused = limiter.pause(1000);
		const read = client.request<IDataObject>({ method: 'GET', path: PATH });
		const pages = client.paginate({ path: '/api/v1/payment-requests', style: 'zeroBased', returnAll: true });
		for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
		expect(limiter.stats.peak).toBe(0);
		expect((await control.requests({})).filter((e) => e.path === PATH || e.path.startsWith('/api/v1/payment-requests'))).toHaveLength(0);
		t = 1000;
		for (const wake of waits.splice(0)) wake();
		await Promise.all([paused, read, pages]);
		expect(limiter.stats.peak).toBeGreaterThan(0);
		expect((await control.requests({ path: PATH })).filter((e) => e.path === PATH)).toHaveLength(1);
	});
});
