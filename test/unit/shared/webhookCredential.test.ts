/**
 * The trigger's credential (nodes/shared/webhookCredential.ts): one read per request, handed to
 * each step, and the one process memory of recent reads a request may take
 * instead (the signature check: authenticate.ts; the confirmation's client).
 * The key cache's and the credential-reads cache's tests live on here.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { tokenCache } from '../../../nodes/shared/accessToken/cache';
import { tokenFingerprint } from '../../../nodes/shared/accessToken/credential';
import { normaliseCredential } from '../../../nodes/shared/credential/read';
import { computeWebhookHash } from '../../../nodes/shared/signature';
import { signatureValid } from '../../../nodes/PayOnUsTrigger/authenticate';
import { CredentialMemory, REUSE_MS, RequestCredential } from '../../../nodes/shared/webhookCredential';

const t0 = 1_700_000_000_000;
const identity = { environment: 'custom', baseUrl: 'https://payonus.example.com', clientId: 'client-1', clientSecret: 'secret-1' };
/** A stored token the client would send as it is (transport `reusable`), unless `token` says otherwise. */
const withToken = (token: Partial<ICredentialDataDecryptedObject> = {}): ICredentialDataDecryptedObject => ({
	accessToken: 'tok-1',
	issuedAt: t0 - 60_000,
	expiresAt: t0 + 3_600_000,
	tokenFingerprint: tokenFingerprint(identity),
	...token,
});
const credential = (clientId: string) => normaliseCredential({ environment: 'sandbox', clientId, clientSecret: 's', webhookVerificationKey: 'k' });

/** A credential store whose key can change, counting reads. */
function store(initial: string, token: Partial<ICredentialDataDecryptedObject> = {}) {
	const state = { key: initial, reads: 0 };
	return {
		state,
		read: async () => {
			state.reads++;
			return normaliseCredential({ ...identity, ...withToken(token), webhookVerificationKey: state.key });
		},
	};
}

const body = { type: 'COLLECTION', accountNumber: '0123456789', onusReference: 'ONUS-1', paymentStatus: 'SUCCESSFUL' };

/** One request: its own RequestCredential over the shared memory, checked against a hash signed with `signingKey`. */
function request(memory: CredentialMemory, id: string | undefined, s: ReturnType<typeof store>, now: number) {
	return new RequestCredential(id, s.read, () => now, memory);
}
async function check(memory: CredentialMemory, id: string | undefined, s: ReturnType<typeof store>, signingKey: string, now: number) {
	const credential = request(memory, id, s, now);
	return await signatureValid({ credential, missing: () => new Error('no key') }, body, computeWebhookHash(body, signingKey));
}

beforeEach(() => {
	tokenCache.reset();
	tokenCache.configure({ clock: { now: () => t0 } });
});
afterAll(() => tokenCache.reset());

describe('the signature check on the request\'s read', () => {
	it('reads the credential once for a burst of genuine deliveries', async () => {
		const memory = new CredentialMemory();
		const s = store('key-a');
		for (let i = 0; i < 50; i++) expect(await check(memory, 'cred-1', s, 'key-a', t0 + i * 10)).toBe(true);
		expect(s.state.reads).toBe(1);
	});

	it('reads again once the remembered read is older than REUSE_MS', async () => {
		const memory = new CredentialMemory();
		const s = store('key-a');
		await check(memory, 'cred-1', s, 'key-a', t0);
		await check(memory, 'cred-1', s, 'key-a', t0 + REUSE_MS - 1);
		expect(s.state.reads).toBe(1);
		await check(memory, 'cred-1', s, 'key-a', t0 + REUSE_MS);
		expect(s.state.reads).toBe(2);
	});

	it('accepts a new key at once: a failed check is retried with a fresh read', async () => {
		const memory = new CredentialMemory();
		const s = store('key-a');
		await check(memory, 'cred-1', s, 'key-a', t0);
		s.state.key = 'key-b'; // the user changed the key in the credential
		expect(await check(memory, 'cred-1', s, 'key-b', t0 + 1)).toBe(true);
		expect(s.state.reads).toBe(2);
		// ...and from then on the new read is the remembered one.
		expect(await check(memory, 'cred-1', s, 'key-b', t0 + 2)).toBe(true);
		expect(s.state.reads).toBe(2);
	});

	it('stops accepting the old key once the new one has been read, and at the latest after REUSE_MS', async () => {
		const memory = new CredentialMemory();
		const s = store('key-a');
		await check(memory, 'cred-1', s, 'key-a', t0);
		s.state.key = 'key-b';
		// Within REUSE_MS and before any read of the new key, the old key still passes (the documented lag).
		expect(await check(memory, 'cred-1', s, 'key-a', t0 + 5)).toBe(true);
		// After REUSE_MS it is read again and refused.
		expect(await check(memory, 'cred-1', s, 'key-a', t0 + REUSE_MS + 5)).toBe(false);
		// Once the new key has been read, the old one is refused even within REUSE_MS.
		const fresh = new CredentialMemory();
		const s2 = store('key-a');
		await check(fresh, 'cred-2', s2, 'key-a', t0);
		s2.state.key = 'key-b';
		await check(fresh, 'cred-2', s2, 'key-b', t0 + 1);
		expect(await check(fresh, 'cred-2', s2, 'key-a', t0 + 2)).toBe(false);
	});

	it('makes every forged request pay for a fresh read, and refuses it', async () => {
		const memory = new CredentialMemory();
		const s = store('key-a');
		await check(memory, 'cred-1', s, 'key-a', t0);
		for (let i = 1; i <= 5; i++) expect(await check(memory, 'cred-1', s, 'forger', t0 + i)).toBe(false);
		expect(s.state.reads).toBe(6);
	});

	it('keeps credentials apart and remembers nothing across requests without a credential id', async () => {
		const memory = new CredentialMemory();
		const a = store('key-a');
		const b = store('key-b');
		expect(await check(memory, 'cred-a', a, 'key-a', t0)).toBe(true);
		expect(await check(memory, 'cred-b', b, 'key-a', t0)).toBe(false);
		const anonymous = store('key-a');
		await check(memory, undefined, anonymous, 'key-a', t0);
		await check(memory, undefined, anonymous, 'key-a', t0 + 1);
		expect(anonymous.state.reads).toBe(2);
	});

	it('a credential without key refuses every request with the missing-key error, each after a read of its own', async () => {
		const memory = new CredentialMemory();
		const s = store('');
		await expect(check(memory, 'cred-1', s, '', t0)).rejects.toThrow('no key');
		await expect(check(memory, 'cred-1', s, '', t0 + 1)).rejects.toThrow('no key');
		expect(s.state.reads).toBe(2);
	});

	it('a remembered key that was removed since: a request it does not verify is read again, then the missing-key error', async () => {
		const memory = new CredentialMemory();
		const s = store('key-a');
		await check(memory, 'cred-1', s, 'key-a', t0);
		s.state.key = '';
		await expect(check(memory, 'cred-1', s, 'key-b', t0 + 1)).rejects.toThrow('no key');
		expect(s.state.reads).toBe(2);
	});
});

describe('one read per request, handed to each step', () => {
	it('the signature check\'s read is the client\'s: one read for the request', async () => {
		const s = store('key-a');
		const credential = request(new CredentialMemory(), undefined, s, t0);
		expect(await signatureValid({ credential, missing: () => new Error('no key') }, body, computeWebhookHash(body, 'key-a'))).toBe(true);
		const forClient = await credential.forClient();
		expect(forClient?.webhookVerificationKey).toBe('key-a');
		expect(s.state.reads).toBe(1);
	});

	it('a read whose token the client would blank or replace is not handed on: read again (the newest store)', async () => {
		for (const token of [{ accessToken: '' }, { tokenFingerprint: 'another' }, { expiresAt: t0 + 60_000 }]) {
			const s = store('key-a', token);
			const credential = request(new CredentialMemory(), 'cred-1', s, t0);
			await credential.current();
			await credential.forClient();
			expect(s.state.reads).toBe(2);
		}
	});

	it('a recent read the client can use is handed on without a read; one it cannot is replaced by a read that renews the memory', async () => {
		const memory = new CredentialMemory();
		const good = store('key-a');
		await request(memory, 'cred-1', good, t0).current();
		expect((await request(memory, 'cred-1', good, t0 + 1).forClient())?.clientId).toBe('client-1');
		expect(good.state.reads).toBe(1);
		const stale = store('key-a', { accessToken: '' });
		const memory2 = new CredentialMemory();
		await request(memory2, 'cred-1', stale, t0).current();
		await request(memory2, 'cred-1', stale, t0 + 1).forClient();
		expect(stale.state.reads).toBe(2);
		expect(memory2.recent('cred-1', t0 + 2)).toBeDefined();
	});
});

describe('CredentialMemory', () => {
	it('hands out a read younger than REUSE_MS, and nothing from then on', () => {
		const reads = new CredentialMemory();
		const a = credential('a');
		reads.remember('cred-1', a, t0);
		expect(reads.recent('cred-1', t0 + REUSE_MS - 1)).toBe(a);
		expect(reads.recent('cred-1', t0 + REUSE_MS)).toBeUndefined();
	});

	it('keeps credentials apart, the newest read of each', () => {
		const reads = new CredentialMemory();
		reads.remember('cred-1', credential('a'), t0);
		reads.remember('cred-2', credential('b'), t0);
		reads.remember('cred-1', credential('c'), t0 + 5);
		expect(reads.recent('cred-1', t0 + 6)?.clientId).toBe('c');
		expect(reads.recent('cred-2', t0 + 6)?.clientId).toBe('b');
	});

	it('forgets a credential when a read finds none, and remembers nothing without an id', () => {
		const reads = new CredentialMemory();
		reads.remember('cred-1', credential('a'), t0);
		reads.remember('cred-1', undefined, t0 + 1);
		expect(reads.recent('cred-1', t0 + 2)).toBeUndefined();
		reads.remember(undefined, credential('a'), t0);
		expect(reads.recent(undefined, t0)).toBeUndefined();
	});

	it('holds at most 100 credentials, the oldest let go first', () => {
		const reads = new CredentialMemory();
		for (let i = 0; i <= 100; i++) reads.remember(`cred-${i}`, credential(String(i)), t0);
		expect(reads.recent('cred-0', t0)).toBeUndefined();
		expect(reads.recent('cred-1', t0)?.clientId).toBe('1');
		expect(reads.recent('cred-100', t0)?.clientId).toBe('100');
	});
});
