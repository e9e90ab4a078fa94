/**
 * The PayOnUs API credential read and normalised in one place
 * (nodes/shared/credential/read.ts).
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { baseUrlOf, CREDENTIAL_TYPE, normaliseCredential, readCredential } from '../../../../nodes/shared/credential/read';
import type { PayOnUsContext } from '../../../../nodes/shared/transport';

describe('the PayOnUs API credential, normalised', () => {
	it('takes every field it uses, trimmed where a space is never meant', () => {
		const data = {
			environment: 'custom',
			baseUrl: ' http://127.0.0.1:4010/ ',
			clientId: ' client-1 ',
			clientSecret: ' secret ',
			webhookVerificationKey: 'key',
			merchantId: ' MER-1001 ',
			businessId: 'BUS-2001',
			accessToken: 'tok',
		};
		const c = normaliseCredential(data);
		expect(c).toEqual({
			data,
			environment: 'custom',
			baseUrl: 'http://127.0.0.1:4010',
			clientId: 'client-1',
			clientSecret: ' secret ',
			webhookVerificationKey: 'key',
			defaults: { merchantId: 'MER-1001', businessId: 'BUS-2001' },
		});
		expect(c.data).toBe(data);
		expect(baseUrlOf(c)).toBe('http://127.0.0.1:4010');
	});

	it('the hosted environments take their own base address', () => {
		expect(normaliseCredential({ environment: 'production' }).baseUrl).toBe('https://core.payonus.com');
		expect(normaliseCredential({ environment: 'sandbox', baseUrl: 'http://ignored' }).baseUrl).toBe('https://core-sandbox.payonus.com');
	});

	it('missing or empty fields: empty strings, no defaults, sandbox', () => {
		const c = normaliseCredential({ merchantId: '  ', businessId: '', clientId: 12 } as unknown as ICredentialDataDecryptedObject);
		expect(c.clientId).toBe('');
		expect(c.clientSecret).toBe('');
		expect(c.webhookVerificationKey).toBe('');
		expect(c.defaults).toEqual({});
		expect(c.environment).toBe('sandbox');
	});

	it('a base address that cannot be used is kept as a problem, thrown only by baseUrlOf', () => {
		const c = normaliseCredential({ environment: 'custom', baseUrl: 'http://payonus.example' });
		expect(c.baseUrl).toBe('');
		expect(c.baseUrlProblem).toMatch(/must use https:\/\//);
		expect(() => baseUrlOf(c)).toThrow(c.baseUrlProblem);
		const odd = normaliseCredential({ environment: 'staging' });
		expect(odd.environment).toBe('sandbox');
		expect(() => baseUrlOf(odd)).toThrow('The credential\'s Environment is "staging"; choose Sandbox, Production or Custom base URL');
	});

	it('readCredential asks n8n for the payOnUsApi credential once; undefined when the node has none', async () => {
		const asked: string[] = [];
		const ctx = (data: ICredentialDataDecryptedObject | undefined) =>
			({
				getCredentials: async (type: string) => {
					asked.push(type);
					return data;
				},
			}) as unknown as PayOnUsContext;
		expect((await readCredential(ctx({ environment: 'sandbox', merchantId: 'MER-1' })))?.defaults).toEqual({ merchantId: 'MER-1' });
		expect(await readCredential(ctx(undefined))).toBeUndefined();
		expect(asked).toEqual([CREDENTIAL_TYPE, CREDENTIAL_TYPE]);
		expect(CREDENTIAL_TYPE).toBe('payOnUsApi');
	});
});
