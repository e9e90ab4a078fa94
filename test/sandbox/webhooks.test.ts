import { createHash } from 'node:crypto';
import { ManualTimers } from '../../sandbox/timers';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { Client, sandboxPerFile, paidDynamic, receiver, waitFor } from './helpers';

const { c, sb } = sandboxPerFile();
let hook: Awaited<ReturnType<typeof receiver>>;
beforeAll(async () => {
	hook = await receiver();
});
afterAll(async () => {
	await hook.close();
});
beforeEach(() => {
	hook.got.length = 0;
});

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

test('nothing is sent until both URL and verification key are set', async () => {
	await c.control('PUT', '/webhooks', { url: hook.url });
	await paidDynamic(c, 100);
	await c.control('PUT', '/webhooks', { url: null, verificationKey: 'k' });
	await paidDynamic(c, 100);
	// Everything the sandbox would do on its own has happened.
	await sb().sandbox.idle();
	expect(hook.got).toHaveLength(0);
	expect((await c.control('GET', '/deliveries')).body.data).toHaveLength(0);
});

test('COLLECTION: text/plain JSON, public-facts fields, hash of accountNumber+onusReference+paymentStatus+key', async () => {
	await c.control('PUT', '/webhooks', { url: hook.url, verificationKey: 'secret-key' });
	const d = await paidDynamic(c, 2500);
	const got = await waitFor(() => hook.got[0]);
	expect(got.headers['content-type']).toBe('text/plain');
	expect(got.json).toMatchObject({
		id: expect.any(String), type: 'COLLECTION', currency: 'NGN', businessId: 'BUS-2001', accountNumber: d.accountNumber, onusReference: d.onusReference,
		paymentStatus: 'SUCCESSFUL', paymentChannel: 'BANK_TRANSFER', transactionAmount: 2500, merchantReference: d.reference, merchantFee: 25,
		senderDetails: { name: expect.any(String), bankCode: expect.any(String), bankName: expect.any(String), accountNumber: expect.any(String) },
	});
	expect(got.headers.hash).toBe(sha(`${d.accountNumber}${d.onusReference}SUCCESSFUL` + 'secret-key'));
	const log = (await c.control('GET', '/deliveries')).body.data;
	await waitFor(async () => (await c.control('GET', '/deliveries')).body.data[0].status === 200);
	expect(log[0]).toMatchObject({ event: 'COLLECTION', url: hook.url, copy: 1 });
	const settings = (await c.control('GET', '/webhooks')).body.data;
	expect(settings).toEqual({ url: hook.url, verificationKey: 'secret-key', duplicates: 1, delayMs: 0, outOfOrder: false });
});

test('duplicates deliver each event N times', async () => {
	await c.control('PUT', '/webhooks', { url: hook.url, verificationKey: 'k', duplicates: 3 });
	const d = await paidDynamic(c, 100);
	await waitFor(() => hook.got.length === 3);
	expect(new Set(hook.got.map((g) => g.json.onusReference))).toEqual(new Set([d.onusReference]));
});

describe('on timers the test moves (sandbox/timers.ts)', () => {
	const timers = new ManualTimers();
	let manual: SandboxHandle;
	const mc = new Client('');
	beforeAll(async () => {
		manual = await startSandbox({ port: 0, timers });
		mc.url = manual.url;
	});
	afterAll(async () => {
		await manual.stop();
	});

	test('delayMs holds deliveries back', async () => {
		await mc.control('PUT', '/webhooks', { url: hook.url, verificationKey: 'k', delayMs: 150 });
		await paidDynamic(mc, 100);
		timers.advance(149);
		expect(hook.got).toHaveLength(0);
		// Not sent at all yet (a delivery is stamped sentAt when it starts).
		expect((await mc.control('GET', '/deliveries')).body.data.map((d: any) => d.sentAt)).toEqual([null]);
		timers.advance(1);
		await waitFor(() => hook.got.length === 1);
	});
});

test('outOfOrder sends newer events first', async () => {
	await c.control('PUT', '/webhooks', { url: hook.url, verificationKey: 'k', outOfOrder: true });
	const a = await paidDynamic(c, 100);
	const b = await paidDynamic(c, 200);
	await waitFor(() => hook.got.length === 2);
	expect(hook.got.map((g) => g.json.onusReference)).toEqual([b.onusReference, a.onusReference]);
	const lone = await paidDynamic(c, 300);
	await waitFor(() => hook.got.length === 3);
	expect(hook.got[2].json.onusReference).toBe(lone.onusReference);
});

test('an unreachable receiver is logged with the error', async () => {
	await c.control('PUT', '/webhooks', { url: 'http://127.0.0.1:9/nowhere', verificationKey: 'k' });
	await paidDynamic(c, 100);
	const d = await waitFor(async () => (await c.control('GET', '/deliveries')).body.data.find((x: any) => x.error));
	expect(d.status).toBeNull();
	expect((await c.control('DELETE', '/deliveries')).status).toBe(200);
	expect((await c.control('GET', '/deliveries')).body.data).toHaveLength(0);
});

test('invalid webhook settings are refused', async () => {
	expect((await c.control('PUT', '/webhooks', { url: 'not a url' })).status).toBe(400);
	expect((await c.control('PUT', '/webhooks', { duplicates: 0 })).status).toBe(400);
});
