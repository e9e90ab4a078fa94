/**
 * The realistic link (sandbox/link.ts): HTTPS with the CA made at start, and
 * the added round trips. Only lower bounds are checked for the delays (a
 * timer never fires early); nothing here is a performance goal.
 */
import { readFileSync } from 'node:fs';
import { Agent, buildConnector, request } from 'undici';
import { SandboxClient } from '../../sandbox/client';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';

const RTT = 40;
let sb: SandboxHandle;

beforeAll(async () => {
	sb = await startSandbox({ port: 0, tls: true, rttMs: RTT, jitterMs: 0 });
});
afterAll(async () => {
	await sb.stop();
});

/** GET /_sandbox/link through `agent` (the sandbox client over that connection pool), timed. */
async function getLink(agent: Agent) {
	const started = performance.now();
	const res = await new SandboxClient(sb.url, { dispatcher: agent }).send<{ data: unknown }>('GET', '/link');
	return { status: res.status, body: res.body, ms: performance.now() - started };
}

test('serves HTTPS with a certificate the written CA vouches for; an untrusting client is refused', async () => {
	expect(sb.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
	expect(readFileSync(sb.tls!.caFile, 'utf8')).toBe(sb.tls!.ca);
	const trusting = new Agent({ connect: { ca: sb.tls!.ca } });
	const r = await getLink(trusting);
	expect(r.status).toBe(200);
	expect(r.body.data).toEqual({ rttMs: RTT, jitterMs: 0, connectionsOpened: expect.any(Number) });
	await trusting.close();
	const plain = new Agent();
	await expect(getLink(plain)).rejects.toThrow(/certificate/i);
	await plain.close();
});

test('a new connection costs TCP + TLS + request round trips; a kept-alive one only the request', async () => {
	// Connections are counted where they are opened, so "kept alive" is a
	// count, not a comparison of two timings on a busy machine.
	const connect = buildConnector({ ca: sb.tls!.ca });
	let opened = 0;
	const agent = new Agent({
		connections: 1,
		connect: (options, callback) => {
			opened++;
			connect(options, callback);
		},
	});
	const before = (await new SandboxClient(sb.url, { dispatcher: agent }).link())!.connectionsOpened;
	expect(opened).toBe(1);
	const other = new Agent({ connect: { ca: sb.tls!.ca } });
	const fresh = await getLink(other);
	await other.close();
	const reused = await getLink(agent);
	expect(opened).toBe(1);
	// The link counts what it accepted: the fresh client's connection, not the kept-alive one's again.
	const after = (await new SandboxClient(sb.url, { dispatcher: agent }).link())!.connectionsOpened;
	expect(after - before).toBe(1);
	// Lower bounds only (a timer never fires early; 1 ms of timer granularity).
	expect(fresh.ms).toBeGreaterThanOrEqual(3 * RTT - 1);
	expect(reused.ms).toBeGreaterThanOrEqual(RTT - 1);
	await agent.close();
});

test('PUT /_sandbox/link changes the delays of open connections; bad values are 400', async () => {
	const agent = new Agent({ connect: { ca: sb.tls!.ca }, connections: 1 });
	const control = new SandboxClient(sb.url, { dispatcher: agent });
	const bad = await control.send('PUT', '/link', { rttMs: -1 });
	expect(bad.status).toBe(400);
	const ok = await control.send<{ data: unknown }>('PUT', '/link', { rttMs: 2 * RTT, jitterMs: 5 });
	expect(ok.body.data).toEqual({ rttMs: 2 * RTT, jitterMs: 5 });
	const slower = await getLink(agent);
	expect(slower.ms).toBeGreaterThanOrEqual(2 * RTT - 5 - 1);
	sb.link!.set({ rttMs: RTT, jitterMs: 0 });
	await agent.close();
});

test('plain sandbox (no tls, no link): unchanged, and PUT /_sandbox/link is refused', async () => {
	const plain = await startSandbox({ port: 0 });
	try {
		expect(plain.url).toMatch(/^http:\/\//);
		expect(plain.link).toBeUndefined();
		const res = await new SandboxClient(plain.url).send('PUT', '/link', {});
		expect(res.status).toBe(409);
	} finally {
		await plain.stop();
	}
});

// The two tests below call /_sandbox/link with raw clients on purpose: they check
// how the link carries bytes for a client that closes (Connection: close) and
// for n8n's own https agents, not the control API.
test('a server that closes after answering (no keep-alive) still delivers the whole answer', async () => {
	const agent = new Agent({ connect: { ca: sb.tls!.ca }, pipelining: 0 });
	const results = await Promise.all(
		Array.from({ length: 6 }, async () => {
			const res = await request(`${sb.url}/_sandbox/link`, { dispatcher: agent, headers: { connection: 'close' } });
			return { status: res.statusCode, body: (await res.body.json()) as { data: unknown } };
		}),
	);
	for (const r of results) expect(r).toEqual({ status: 200, body: expect.objectContaining({ data: expect.objectContaining({ rttMs: RTT, jitterMs: 0 }) }) });
	await agent.close();
});

test('n8n-style client: a new https agent per request (Connection: close), with jitter: no resets, order kept', async () => {
	sb.link!.set({ jitterMs: RTT / 2 });
	const https = await import('node:https');
	const one = async () =>
		await new Promise<number>((resolve, reject) => {
			const req = https.get(`${sb.url}/_sandbox/link`, { agent: new https.Agent({ keepAlive: false, ca: sb.tls!.ca }) }, (res) => {
				res.resume();
				res.on('end', () => resolve(res.statusCode ?? 0));
			});
			req.on('error', reject);
		});
	try {
		expect(await Promise.all(Array.from({ length: 24 }, one))).toEqual(Array.from({ length: 24 }, () => 200));
	} finally {
		sb.link!.set({ jitterMs: 0 });
	}
});
