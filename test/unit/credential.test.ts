/**
 * The credential's description (what n8n reads) and its pieces that do not
 * need a server: the fields of issue 3, the expirable token, the bearer
 * header, the test request per environment, and the base URL rules.
 */
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';
import { PayOnUsApi } from '../../credentials/PayOnUsApi.credentials';
import { ENVIRONMENT_BASE_URLS, resolveBaseUrl } from '../../nodes/shared/environments';
import { checkRead } from '../../nodes/shared/token/check';
import { TOKEN_FIELDS, tokenFields } from '../../nodes/shared/token/credential';

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

	it('tests with one cheap read at the base URL of the chosen environment', () => {
		const req = cred.test.request as IHttpRequestOptions & { baseURL: string; url: string };
		// The expressions as n8n would evaluate them (plain JS with $credentials).
		const evaluate = (expr: string, $credentials: ICredentialDataDecryptedObject) =>
			new Function('$credentials', `return (${expr.slice(3, -2)});`)($credentials) as string;
		expect(evaluate(req.baseURL, { environment: 'sandbox' })).toBe('https://core-sandbox.payonus.com');
		expect(evaluate(req.baseURL, { environment: 'production' })).toBe('https://core.payonus.com');
		expect(evaluate(req.baseURL, { environment: 'custom', baseUrl: ' http://127.0.0.1:4010/ ' })).toBe('http://127.0.0.1:4010');
		expect(evaluate(req.url, { merchantId: 'MER-1001' })).toBe('/api/v1/merchants/MER-1001/wallets');
		expect(evaluate(req.url, { merchantId: '' })).toBe('/api/v1/payment-requests');
		expect(req.method).toBe('GET');
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

	it('tests at the addresses of environments.ts with the read of the token check', () => {
		const req = cred.test.request as IHttpRequestOptions & { baseURL: string; url: string };
		const evaluate = (expr: string, $credentials: ICredentialDataDecryptedObject) =>
			new Function('$credentials', `return (${expr.slice(3, -2)});`)($credentials) as string;
		for (const environment of ['sandbox', 'production'] as const) {
			expect(evaluate(req.baseURL, { environment })).toBe(ENVIRONMENT_BASE_URLS[environment]);
			expect(evaluate(req.baseURL, { environment })).toBe(resolveBaseUrl(environment));
		}
		for (const merchantId of ['MER-1001', ' MER 9/x ', '']) {
			expect(evaluate(req.url, { merchantId })).toBe(checkRead(merchantId.trim()).path);
		}
		expect(req.qs).toEqual(checkRead('').qs);
	});
});
