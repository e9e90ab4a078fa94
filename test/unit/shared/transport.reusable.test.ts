/**
 * When a credential read a moment ago may stand in for a fresh read
 * (transport `reusable`): only when the client would send its stored token
 * as it is and that token is the one this process would use now.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { tokenCache } from '../../../nodes/shared/accessToken/cache';
import { tokenFingerprint } from '../../../nodes/shared/accessToken/credential';
import { normaliseCredential } from '../../../nodes/shared/credential/read';
import { reusable } from '../../../nodes/shared/transport';

const now = 1_700_000_000_000;
const identity = { environment: 'custom', baseUrl: 'https://payonus.example.com', clientId: 'client-1', clientSecret: 'secret-1' };
const key = tokenFingerprint(identity);
const read = (token: Partial<ICredentialDataDecryptedObject>) =>
	normaliseCredential({ ...identity, accessToken: 'tok-1', issuedAt: now - 60_000, expiresAt: now + 3_600_000, tokenFingerprint: key, ...token });

beforeEach(() => {
	tokenCache.reset();
	tokenCache.configure({ clock: { now: () => now } });
});
afterAll(() => tokenCache.reset());

describe('reusable', () => {
	it('a stored token minted for these settings, far from its expiry: yes', () => {
		expect(reusable(read({}))).toBe(true);
	});

	it('no stored token, a token of other settings, or one near its expiry: no (the session would blank it)', () => {
		expect(reusable(read({ accessToken: '' }))).toBe(false);
		expect(reusable(read({ tokenFingerprint: 'another' }))).toBe(false);
		expect(reusable(read({ expiresAt: now + 60_000 }))).toBe(false);
	});

	it('a token this process knows was refused: no', () => {
		tokenCache.markDead(key, 'tok-1', now - 60_000);
		expect(reusable(read({}))).toBe(false);
	});

	it('this process holds another live token (newer than the read): no', () => {
		tokenCache.observe(key, { token: 'tok-2', issuedAt: now - 1000, expiresAt: now + 3_600_000 });
		expect(reusable(read({}))).toBe(false);
		expect(reusable(read({ accessToken: 'tok-2', issuedAt: now - 1000 }))).toBe(true);
	});

	it('a base address that cannot be used: no', () => {
		expect(reusable(normaliseCredential({ environment: 'custom', baseUrl: 'not a url', clientId: 'c', clientSecret: 's' }))).toBe(false);
	});
});
