import { KEY_TTL_MS, VerificationKeyCache } from '../../nodes/PayOnUsTrigger/keyCache';

/** A credential store whose key can change, counting reads. */
function store(initial: string) {
	const state = { key: initial, reads: 0 };
	return {
		state,
		read: async () => {
			state.reads++;
			return state.key;
		},
	};
}

/** The check a signed request makes: was it signed with this key? */
const signedWith = (signingKey: string) => (key: string) => key === signingKey;

describe('VerificationKeyCache', () => {
	const t0 = 1_700_000_000_000;

	it('reads the credential once for a burst of genuine deliveries', async () => {
		const cache = new VerificationKeyCache();
		const s = store('key-a');
		for (let i = 0; i < 50; i++) {
			expect(await cache.verify('cred-1', s.read, signedWith('key-a'), t0 + i * 10)).toBe(true);
		}
		expect(s.state.reads).toBe(1);
	});

	it('reads again once the remembered key is older than the TTL', async () => {
		const cache = new VerificationKeyCache();
		const s = store('key-a');
		await cache.verify('cred-1', s.read, signedWith('key-a'), t0);
		await cache.verify('cred-1', s.read, signedWith('key-a'), t0 + KEY_TTL_MS - 1);
		expect(s.state.reads).toBe(1);
		await cache.verify('cred-1', s.read, signedWith('key-a'), t0 + KEY_TTL_MS);
		expect(s.state.reads).toBe(2);
	});

	it('accepts a new key at once: a failed check is retried with a fresh read', async () => {
		const cache = new VerificationKeyCache();
		const s = store('key-a');
		await cache.verify('cred-1', s.read, signedWith('key-a'), t0);
		s.state.key = 'key-b'; // the user changed the key in the credential
		expect(await cache.verify('cred-1', s.read, signedWith('key-b'), t0 + 1)).toBe(true);
		expect(s.state.reads).toBe(2);
		// ...and from then on the new key is the remembered one.
		expect(await cache.verify('cred-1', s.read, signedWith('key-b'), t0 + 2)).toBe(true);
		expect(s.state.reads).toBe(2);
	});

	it('stops accepting the old key once the new one has been read, and at the latest after the TTL', async () => {
		const cache = new VerificationKeyCache();
		const s = store('key-a');
		await cache.verify('cred-1', s.read, signedWith('key-a'), t0);
		s.state.key = 'key-b';
		// Within the TTL and before any read of the new key, the old key still passes (the documented lag).
		expect(await cache.verify('cred-1', s.read, signedWith('key-a'), t0 + 5)).toBe(true);
		// After the TTL it is read again and refused.
		expect(await cache.verify('cred-1', s.read, signedWith('key-a'), t0 + KEY_TTL_MS + 5)).toBe(false);
		// Once the new key has been read, the old one is refused even within the TTL.
		const fresh = new VerificationKeyCache();
		const s2 = store('key-a');
		await fresh.verify('cred-2', s2.read, signedWith('key-a'), t0);
		s2.state.key = 'key-b';
		await fresh.verify('cred-2', s2.read, signedWith('key-b'), t0 + 1);
		expect(await fresh.verify('cred-2', s2.read, signedWith('key-a'), t0 + 2)).toBe(false);
	});

	it('makes every forged request pay for a fresh read, and refuses it', async () => {
		const cache = new VerificationKeyCache();
		const s = store('key-a');
		await cache.verify('cred-1', s.read, signedWith('key-a'), t0);
		for (let i = 1; i <= 5; i++) {
			expect(await cache.verify('cred-1', s.read, signedWith('forger'), t0 + i)).toBe(false);
		}
		expect(s.state.reads).toBe(6);
	});

	it('keeps credentials apart and remembers nothing without a credential id', async () => {
		const cache = new VerificationKeyCache();
		const a = store('key-a');
		const b = store('key-b');
		expect(await cache.verify('cred-a', a.read, signedWith('key-a'), t0)).toBe(true);
		expect(await cache.verify('cred-b', b.read, signedWith('key-a'), t0)).toBe(false);
		const anonymous = store('key-a');
		await cache.verify(undefined, anonymous.read, signedWith('key-a'), t0);
		await cache.verify(undefined, anonymous.read, signedWith('key-a'), t0 + 1);
		expect(anonymous.state.reads).toBe(2);
	});

	it('never remembers an empty key (a credential without key refuses every request)', async () => {
		const cache = new VerificationKeyCache();
		const s = store('');
		const nonEmpty = (key: string) => key.length > 0;
		expect(await cache.verify('cred-1', s.read, nonEmpty, t0)).toBe(false);
		expect(await cache.verify('cred-1', s.read, nonEmpty, t0 + 1)).toBe(false);
		expect(s.state.reads).toBe(2);
	});
});
