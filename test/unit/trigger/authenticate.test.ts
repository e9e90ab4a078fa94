/** Step 2 of the PayOnUs Trigger (authenticate.ts): the hash of signed events, the link id of tokenization. */
import { computeWebhookHash } from '../../../nodes/shared/signature';
import { authenticate, signatureValid, verifySigned, type KeySource } from '../../../nodes/PayOnUsTrigger/authenticate';
import type { Notification } from '../../../nodes/PayOnUsTrigger/notification';
import { CredentialMemory, RequestCredential } from '../../../nodes/shared/webhookCredential';
import { normaliseCredential } from '../../../nodes/shared/credential/read';

const KEY = 'whk-step-key';
const body = { type: 'PAYOUT', accountNumber: '0123456789', onusReference: 'ONUS-TRNF-1000000000009-01012025-101010', paymentStatus: 'SUCCESSFUL', transactionAmount: 5 };
const payout: Notification = { event: 'PAYOUT', body, receivedAt: new Date(0) };
const tokenization = (linkId: unknown): Notification => ({
	event: 'card_tokenization_link.completed',
	body: { event: 'card_tokenization_link.completed', cardTokenizationLinkId: linkId as string },
	receivedAt: new Date(0),
});

/** A credential without an id (nothing remembered between checks), counting reads. */
function keys(key: string): KeySource & { reads: number } {
	const source: KeySource & { reads: number } = {
		reads: 0,
		credential: new RequestCredential(
			undefined,
			async () => {
				source.reads++;
				return normaliseCredential({ environment: 'sandbox', clientId: 'c', clientSecret: 's', webhookVerificationKey: key });
			},
			() => 0,
			new CredentialMemory(),
		),
		missing: () => new Error('no key'),
	};
	return source;
}

describe('verifySigned', () => {
	it('accepts the hash of the three signed fields under the key, nothing else', () => {
		const hash = computeWebhookHash(body, KEY);
		expect(verifySigned(body, hash, KEY)).toBe(true);
		expect(verifySigned({ ...body, transactionAmount: 999 }, hash, KEY)).toBe(true); // not signed
		expect(verifySigned({ ...body, paymentStatus: 'FAILED' }, hash, KEY)).toBe(false);
		expect(verifySigned(body, hash, 'other-key')).toBe(false);
		expect(verifySigned(body, undefined, KEY)).toBe(false);
	});
});

describe('authenticate', () => {
	it('lets a signed event with the right hash go on; refuses any other with 401', async () => {
		expect(await authenticate(payout, computeWebhookHash(body, KEY), keys(KEY))).toBeUndefined();
		const refused = { status: 401, body: { received: false, message: 'Signature missing or wrong' } };
		expect(await authenticate(payout, computeWebhookHash(body, 'other'), keys(KEY))).toEqual(refused);
		expect(await authenticate(payout, undefined, keys(KEY))).toEqual(refused);
	});

	it('throws the missing-key error when the credential has no key (n8n answers 500)', async () => {
		await expect(signatureValid(keys(''), body, computeWebhookHash(body, ''))).rejects.toThrow('no key');
	});

	it('reads no key for a tokenization notification; its link id must be a safe id', async () => {
		const source = keys(KEY);
		expect(await authenticate(tokenization('ctl_1'), undefined, source)).toBeUndefined();
		for (const bad of [undefined, '', '../ctl', 'a b', 'x'.repeat(129), 42]) {
			expect(await authenticate(tokenization(bad), undefined, source)).toEqual({
				status: 400,
				body: { received: false, message: 'cardTokenizationLinkId missing or malformed' },
			});
		}
		expect(source.reads).toBe(0);
	});
});
