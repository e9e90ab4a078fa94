/**
 * The credential's description (what n8n reads) and its pieces that do not
 * need a server: the fields of issue 3, the expirable token, the bearer
 * header, the test request per environment, and the base URL rules.
 */
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';
import { PayOnUsApi } from '../../../credentials/PayOnUsApi.credentials';
import { resolveBaseUrl } from '../../../nodes/shared/environments';
import { PayOnUs } from '../../../nodes/PayOnUs/PayOnUs.node';
import { PayOnUsPaymentPage } from '../../../nodes/PayOnUsPaymentPage/PayOnUsPaymentPage.node';
import { PayOnUsPollTrigger } from '../../../nodes/PayOnUsPollTrigger/PayOnUsPollTrigger.node';
import { PayOnUsTrigger } from '../../../nodes/PayOnUsTrigger/PayOnUsTrigger.node';
import { tokenCache } from '../../../nodes/shared/accessToken/cache';
import { TOKEN_FIELDS, tokenFields, tokenFingerprint } from '../../../nodes/shared/accessToken/credential';
import {
	CREDENTIAL_TEST_NAME,
	legacyHttpHelpers,
	payOnUsApiTest,
	testCredentialValues,
} from '../../../nodes/shared/accessToken/credentialTest';

const cred = new PayOnUsApi();
const prop = (name: string) => cred.properties.find((p) => p.name === name);

describe('PayOnUs API credential', () => {
	it('is named as n8n and the nodes expect', () => {
		expect(cred.name).toBe('payOnUsApi');
		expect(cred.displayName).toBe('PayOnUs API');
		expect(cred.icon).toEqual({ light: 'file:payonus.svg', dark: 'file:payonus.dark.svg' });
		expect(cred.documentationUrl).toMatch(/^https:\/\//);
	});

	it('has the fields of the fixed data shape, secrets as passwords', () => {
		expect(cred.properties.map((p) => p.name)).toEqual([
			'environment',
			'baseUrl',
			'clientId',
			'clientSecret',
			'webhookVerificationKey',
			'merchantId',
			'businessId',
			'accessToken',
			'issuedAt',
			'expiresAt',
			'tokenFingerprint',
		]);
		expect(prop('environment')?.options?.map((o) => (o as { value: string }).value)).toEqual(['sandbox', 'production', 'custom']);
		expect(prop('baseUrl')?.displayOptions).toEqual({ show: { environment: ['custom'] } });
		for (const secret of ['clientSecret', 'webhookVerificationKey', 'accessToken']) {
			expect(prop(secret)?.typeOptions?.password).toBe(true);
		}
		expect(prop('accessToken')).toMatchObject({ type: 'hidden', default: '', typeOptions: { expirable: true } });
		for (const hidden of ['issuedAt', 'expiresAt', 'tokenFingerprint']) expect(prop(hidden)?.type).toBe('hidden');
	});

	it('has one expirable field, the access token; the token timestamps are not masked as secrets', () => {
		// n8n runs preAuthentication off the (first) hidden expirable field and
		// requires its key in the result, so there must be exactly this one.
		expect(cred.properties.filter((p) => p.typeOptions?.expirable === true).map((p) => p.name)).toEqual(['accessToken']);
		for (const stamp of ['issuedAt', 'expiresAt']) {
			expect(prop(stamp)).toMatchObject({ type: 'hidden', default: 0 });
			expect(prop(stamp)?.typeOptions?.password).toBeUndefined();
		}
		expect(prop('tokenFingerprint')?.typeOptions?.password).toBe(true);
	});

	it('sends the stored token as a bearer header, keeping the other headers', async () => {
		const authenticate = cred.authenticate as (
			c: ICredentialDataDecryptedObject,
			o: IHttpRequestOptions,
		) => Promise<IHttpRequestOptions>;
		const out = await authenticate({ accessToken: 'tok-1' }, { url: '/x', headers: { Accept: 'application/json' } });
		expect(out.headers).toEqual({ Accept: 'application/json', Authorization: 'Bearer tok-1' });
		expect(out.url).toBe('/x');
	});

	it('resolves base URLs and refuses bad custom ones clearly', () => {
		expect(resolveBaseUrl('custom', 'http://127.0.0.1:4010/')).toBe('http://127.0.0.1:4010');
		expect(resolveBaseUrl('custom', 'https://proxy.example/payonus/')).toBe('https://proxy.example/payonus');
		expect(() => resolveBaseUrl('custom', '')).toThrow(/Base URL is empty/);
		expect(() => resolveBaseUrl('custom', 'ftp://x')).toThrow(/must start with http/);
		expect(() => resolveBaseUrl('custom', 'http://user:pw@x')).toThrow(/must not contain a user/);
		expect(() => resolveBaseUrl('staging', '')).toThrow(/choose Sandbox, Production or Custom/);
	});

	it('declares as hidden fields exactly the token fields preAuthentication writes (one list)', () => {
		expect(cred.properties.filter((p) => p.type === 'hidden').map((p) => p.name)).toEqual([...TOKEN_FIELDS]);
		expect(Object.keys(tokenFields({ token: 't', issuedAt: 1, expiresAt: 2 }, 'f'))).toEqual([...TOKEN_FIELDS]);
	});

	it('has no declarative test request: the PayOnUs node tests it with a function (a declarative one wins over testedBy)', () => {
		expect((cred as unknown as { test?: unknown }).test).toBeUndefined();
		// n8n takes the first node it finds that uses the credential: every one names and carries the test.
		for (const node of [new PayOnUs(), new PayOnUsTrigger(), new PayOnUsPollTrigger(), new PayOnUsPaymentPage()]) {
			expect(node.description.credentials).toEqual([expect.objectContaining({ name: 'payOnUsApi', testedBy: CREDENTIAL_TEST_NAME })]);
			expect(node.methods.credentialTest[CREDENTIAL_TEST_NAME]).toBe(payOnUsApiTest);
		}
	});
});

/** A fake service for the credential test: a token call and a read, counted. */
function fakeService(secret: string) {
	const calls = { mint: 0, read: 0, lastBearer: '' };
	let n = 0;
	const httpRequest = jest.fn(async (o: IHttpRequestOptions) => {
		if (o.method === 'POST' && String(o.url).endsWith('/api/v1/access-token')) {
			calls.mint++;
			const body = o.body as { apiClientSecret: string };
			if (body.apiClientSecret !== secret) throw { response: { status: 401, headers: {} } };
			return { data: { access_token: `fresh-${++n}`, expires_in: 86399 } };
		}
		calls.read++;
		calls.lastBearer = String((o.headers as Record<string, string>).Authorization);
		return { data: [] };
	});
	return { calls, helpers: { httpRequest } as never };
}

describe('credential test (the form values, always with a fresh token call)', () => {
	// What n8n hands the test for a SAVED, used credential: the form's values
	// with the stored hidden token fields put back (a valid stored token).
	const form = (clientSecret: string, extra: ICredentialDataDecryptedObject = {}): ICredentialDataDecryptedObject => ({
		environment: 'custom',
		baseUrl: 'http://127.0.0.1:4010',
		clientId: 'client-a',
		clientSecret,
		merchantId: 'MER-1001',
		accessToken: 'stored-valid-token',
		issuedAt: 1_000,
		expiresAt: 1_000 + 86_399_000,
		tokenFingerprint: tokenFingerprint({ baseUrl: 'http://127.0.0.1:4010', clientId: 'client-a', clientSecret: 'right' }),
		...extra,
	});
	beforeEach(() => tokenCache.reset());

	it('fails when the secret was changed to a wrong one, though the stored token is valid (one token call)', async () => {
		const svc = fakeService('right');
		const result = await testCredentialValues(svc.helpers, form('wrong'));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/refused the Client ID \/ Client Secret \(HTTP 401\)/);
		expect(result.message).not.toContain('wrong');
		expect(svc.calls).toMatchObject({ mint: 1, read: 0 });
	});

	it('fails when the ID and secret were both changed to wrong ones', async () => {
		const svc = fakeService('right');
		const result = await testCredentialValues(svc.helpers, form('other', { clientId: 'client-b' }));
		expect(result.status).toBe('Error');
		expect(svc.calls.mint).toBe(1);
	});

	it('passes with the right values, with a fresh token (not the stored one), one token call; the process keeps it and the stored one is dead', async () => {
		const svc = fakeService('right');
		const result = await testCredentialValues(svc.helpers, form('right'));
		expect(result).toEqual({ status: 'OK', message: expect.stringMatching(/3 token requests a minute/) });
		expect(svc.calls).toMatchObject({ mint: 1, read: 1, lastBearer: 'Bearer fresh-1' });
		const key = tokenFingerprint({ baseUrl: 'http://127.0.0.1:4010', clientId: 'client-a', clientSecret: 'right' });
		expect(tokenCache.live(key)?.token).toBe('fresh-1');
		expect(tokenCache.isDead(key, 'stored-valid-token')).toBe(true);
	});

	it('names an unknown merchant (404 on the check read)', async () => {
		const svc = fakeService('right');
		svc.helpers = {
			httpRequest: async (o: IHttpRequestOptions) => {
				if (o.method === 'POST') return { data: { access_token: 't1', expires_in: 60 } };
				throw { response: { status: 404, headers: {} } };
			},
		} as never;
		const result = await testCredentialValues(svc.helpers, form('right', { merchantId: 'MER-NOPE' }));
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/MER-NOPE/) });
	});

	it('goes through the legacy request helper of a test function without following redirects', async () => {
		const request = jest.fn(async () => ({ data: { access_token: 't', expires_in: 60 } }));
		await legacyHttpHelpers({ request } as never).httpRequest({ method: 'POST', url: 'http://x/api/v1/access-token', body: { a: 1 } });
		expect(request).toHaveBeenCalledWith(
			expect.objectContaining({ method: 'POST', uri: 'http://x/api/v1/access-token', body: { a: 1 }, json: true, followRedirect: false }),
		);
	});

});
