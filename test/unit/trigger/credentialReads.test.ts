import { KEY_TTL_MS } from '../../../nodes/PayOnUsTrigger/keyCache';
import { RecentCredentials } from '../../../nodes/PayOnUsTrigger/credentialReads';
import { normaliseCredential } from '../../../nodes/shared/credential/read';

const credential = (clientId: string) => normaliseCredential({ environment: 'sandbox', clientId, clientSecret: 's', webhookVerificationKey: 'k' });
const t0 = 1_700_000_000_000;

describe('RecentCredentials: the signature check\'s read, for the confirmation', () => {
	it('hands out a read younger than the key TTL, and nothing from then on', () => {
		const reads = new RecentCredentials();
		const a = credential('a');
		reads.remember('cred-1', a, t0);
		expect(reads.recent('cred-1', t0 + KEY_TTL_MS - 1)).toBe(a);
		expect(reads.recent('cred-1', t0 + KEY_TTL_MS)).toBeUndefined();
	});

	it('keeps credentials apart, the newest read of each', () => {
		const reads = new RecentCredentials();
		reads.remember('cred-1', credential('a'), t0);
		reads.remember('cred-2', credential('b'), t0);
		reads.remember('cred-1', credential('c'), t0 + 5);
		expect(reads.recent('cred-1', t0 + 6)?.clientId).toBe('c');
		expect(reads.recent('cred-2', t0 + 6)?.clientId).toBe('b');
	});

	it('forgets a credential when a read finds none, and remembers nothing without an id', () => {
		const reads = new RecentCredentials();
		reads.remember('cred-1', credential('a'), t0);
		reads.remember('cred-1', undefined, t0 + 1);
		expect(reads.recent('cred-1', t0 + 2)).toBeUndefined();
		reads.remember(undefined, credential('a'), t0);
		expect(reads.recent(undefined, t0)).toBeUndefined();
	});

	it('holds at most 100 credentials, the oldest let go first', () => {
		const reads = new RecentCredentials();
		for (let i = 0; i <= 100; i++) reads.remember(`cred-${i}`, credential(String(i)), t0);
		expect(reads.recent('cred-0', t0)).toBeUndefined();
		expect(reads.recent('cred-1', t0)?.clientId).toBe('1');
		expect(reads.recent('cred-100', t0)?.clientId).toBe('100');
	});
});
