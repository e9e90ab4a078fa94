/**
 * The PayOnUs Trigger's confirmations take the request's read of the
 * credential (nodes/shared/webhookCredential.ts: the signature check's, or a recent one of the
 * process) instead of reading it again, and only when the transport says the
 * read can stand in for a fresh one (transport `reusable`). Real transport,
 * real sandbox, n8n-core's real request helpers and a credentials helper
 * that behaves like n8n's (dev/inProcessN8n.ts); each "process" is its own
 * copy of the modules.
 */
import type { IDataObject } from 'n8n-workflow';
import { startSandbox, type SandboxHandle } from '../../../sandbox/server';
import { SandboxApi } from '../../../dev/sandboxScenarios';
import { sandboxAccessToken } from '../../../dev/sandboxCredential';
import { CredentialStore, FakeN8n, sandboxCredential } from '../../../dev/inProcessN8n';
import { computeWebhookHash } from '../../../nodes/shared/signature';

type TriggerModule = typeof import('../../../nodes/PayOnUsTrigger/PayOnUsTrigger.node');
type ClockModule = typeof import('../../../nodes/PayOnUsTrigger/clock');
type ConfirmModule = typeof import('../../../nodes/PayOnUsTrigger/confirm');
type CredModule = typeof import('../../../credentials/PayOnUsApi.credentials');

const KEY = 'whk-test-key';
let sb: SandboxHandle;
let payins: SandboxApi;

/** A fresh process (its own token cache and credential memory) on the shared credential store. */
function startProcess(store: CredentialStore) {
	let trigger!: TriggerModule;
	let clock!: ClockModule;
	let confirm!: ConfirmModule;
	let cred!: CredModule;
	jest.isolateModules(() => {
		trigger = require('../../../nodes/PayOnUsTrigger/PayOnUsTrigger.node');
		clock = require('../../../nodes/PayOnUsTrigger/clock');
		confirm = require('../../../nodes/PayOnUsTrigger/confirm');
		cred = require('../../../credentials/PayOnUsApi.credentials');
	});
	confirm.CONFIRM_TIMING.pauseMs = 0;
	// The trigger's clock stands still: a burst stays within the 10 s the
	// credential read is reused for however slow the machine (token expiry
	// keeps real time).
	const startedAt = Date.now();
	clock.clock.now = () => startedAt;
	const n8n = new FakeN8n(store, new cred.PayOnUsApi());
	/** Delivers one signed notification; resolves with the items on the two outputs. */
	const deliver = async (body: IDataObject) => {
		const raw = JSON.stringify(body);
		const hash = computeWebhookHash(body, KEY);
		const res = { status: () => ({ json: () => undefined }) };
		const params: IDataObject = { events: ['COLLECTION'], options: {}, simplify: false };
		const ctx = {
			...n8n.context(),
			getRequestObject: () => ({ headers: { hash }, rawBody: Buffer.from(raw) }),
			getResponseObject: () => res,
			getBodyData: () => raw,
			getNodeParameter: (name: string, fallback: unknown) => (name in params ? params[name] : fallback),
			getMode: () => 'webhook',
			getWorkflow: () => ({ id: 'wf-reads' }),
			getWorkflowStaticData: () => ({}),
			logger: { warn: () => undefined, info: () => undefined },
		};
		const result = await new trigger.PayOnUsTrigger().webhook.call(ctx as never);
		return { confirmed: result.workflowData?.[0] ?? [], unconfirmed: result.workflowData?.[1] ?? [] };
	};
	return { deliver };
}

/** A paid payin in the sandbox and the notification the service sends for it. */
async function paidPayin(i: number): Promise<IDataObject> {
	const account = await payins.collection(`reads-${Date.now()}-${i}`, 1000);
	return {
		type: 'COLLECTION',
		businessId: 'BUS-2001',
		accountNumber: String(account.accountNumber),
		onusReference: String(account.onusReference),
		paymentStatus: 'SUCCESSFUL',
		transactionAmount: 1000,
	};
}

/** A credential store holding a token of API client 1 that the service accepts (as after an earlier run). */
async function storeWithLiveToken(): Promise<CredentialStore> {
	const store = new CredentialStore(sandboxCredential(sb.url));
	// One confirmation in a throw-away process mints and stores the token.
	await startProcess(store).deliver(await paidPayin(0));
	return store;
}

const stats = () => ({ ...sb.state.clientStats('sandbox-client-1') });

// Real sandbox, real token calls and ten deliveries each: a loaded 2-core machine
// needs more than jest's 5 s; the assertions count reads and calls, never time.
jest.setTimeout(60_000);

beforeAll(async () => {
	sb = await startSandbox({ port: 0 });
	payins = new SandboxApi(sb.url);
});
afterAll(async () => {
	await sb.stop();
});
beforeEach(() => {
	// A fresh service: the token calls of one test do not count against the next (3 a minute).
	sb.sandbox.reset();
});

it('a burst of confirmed events reads the credential once (the signature check\'s read), not once more per event', async () => {
	const store = await storeWithLiveToken();
	const reads = jest.spyOn(store, 'read');
	const p = startProcess(store);
	const before = stats();
	for (let i = 1; i <= 10; i++) {
		const out = await p.deliver(await paidPayin(i));
		expect(out.confirmed).toHaveLength(1);
	}
	expect(reads).toHaveBeenCalledTimes(1);
	expect(stats().tokenCalls - before.tokenCalls).toBe(0);
	expect(stats().unauthorized - before.unauthorized).toBe(0);
});

it('a burst that starts with no stored token: one token call, then the read that found it serves the rest', async () => {
	const store = new CredentialStore(sandboxCredential(sb.url));
	const reads = jest.spyOn(store, 'read');
	const p = startProcess(store);
	for (let i = 1; i <= 10; i++) expect((await p.deliver(await paidPayin(i))).confirmed).toHaveLength(1);
	// The signature check's read (no token yet), the first confirmation's (no token: it calls for one and
	// stores it), the second's (finds it): the other eight take that one.
	expect(reads).toHaveBeenCalledTimes(3);
	expect(stats().tokenCalls).toBe(1);
	expect(stats().unauthorized).toBe(0);
});

it('a token another process stored after the read: one 401, the credential read again, no token call', async () => {
	const store = await storeWithLiveToken();
	const p = startProcess(store);
	expect((await p.deliver(await paidPayin(1))).confirmed).toHaveLength(1);
	// Another process takes a new token (the service keeps one valid at a time) and stores it.
	const newer = await sandboxAccessToken(sb.url, 1);
	store.patch({ accessToken: newer, issuedAt: Date.now() });
	const reads = jest.spyOn(store, 'read');
	const before = stats();
	expect((await p.deliver(await paidPayin(2))).confirmed).toHaveLength(1);
	expect(stats().unauthorized - before.unauthorized).toBe(1);
	expect(stats().tokenCalls - before.tokenCalls).toBe(0);
	expect(reads).toHaveBeenCalledTimes(1);
	expect(store.read().accessToken).toBe(newer);
});

it('a read whose token is near its expiry is not reused: the credential is read again and a newer stored token taken, no token call', async () => {
	const store = await storeWithLiveToken();
	// The stored token is about to expire (inside the refresh margin) when the signature check reads it...
	store.patch({ expiresAt: Date.now() + 60_000 });
	const p = startProcess(store);
	const first = await paidPayin(1);
	const newer = await sandboxAccessToken(sb.url, 1);
	// ...the confirmation would blank it and call for a token; but another process has just stored a fresh one.
	const reads = jest.spyOn(store, 'read').mockImplementationOnce(function (this: CredentialStore) {
		const read = CredentialStore.prototype.read.call(this);
		this.write({ ...read, accessToken: newer, issuedAt: Date.now(), expiresAt: Date.now() + 86_000_000 });
		return read;
	});
	const before = stats();
	expect((await p.deliver(first)).confirmed).toHaveLength(1);
	expect(reads).toHaveBeenCalledTimes(2);
	expect(stats().tokenCalls - before.tokenCalls).toBe(0);
	expect(stats().unauthorized - before.unauthorized).toBe(0);
});
