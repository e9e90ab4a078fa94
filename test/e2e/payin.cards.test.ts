/**
 * Card payins: Charge Card (encrypted card data only) and Charge Tokenized
 * Card (tokens stored through the consent flow).
 *
 * Payin operations of the PayOnUs node in a real n8n against the sandbox
 * (set-up in payin.fixtures.ts). Each test runs ONE workflow (Manual Trigger
 * -> Code items -> PayOnUs) whose items mix good inputs and bad ones
 * (continueOnFail on): the good ones must reach the sandbox with the
 * documented request, each bad one must become an error item naming the item
 * and the field, and nothing of a bad item may reach the sandbox.
 *
 * Run: npm run build && npx jest --selectProjects e2e test/e2e/payin.cards.test.ts -i
 */
import type { IDataObject } from 'n8n-workflow';
import { nodeItems } from '../harness/e2e';
import { business, NODE } from '../../dev/workflows';
import { customerParams, e, payinSuite, person } from './payin.fixtures';

const payin = payinSuite();
const { run, outcome, api, encryptCard } = payin;

describe('payin in real n8n', () => {
	it('Charge Card: encrypted card data only, nextStep for PIN/OTP/3DS; raw card numbers refused before sending', async () => {
		const cards = {
			SUCCESS: await encryptCard('4111111111111111'),
			PIN: await encryptCard('5399000000000008'),
			OTP: await encryptCard('5399000000000016'),
			THREE_DS: await encryptCard('4000000000003220'),
		};
		const execution = await run(
			'charge card',
			{
				resource: 'payin',
				operation: 'chargeCard',
				// one item at a time: the request log is read in item order below
				options: { moneyMovingConcurrency: 1 },
				businessId: business('BUS-2001'),
				cardData: e('cardData'),
				amount: e('amount'),
				currency: e('currency'),
				reference: e('reference'),
				...customerParams,
				additionalFields: { redirectUrl: 'https://shop.example.com/back', narration: 'Order' },
			},
			[
				{ ...person, cardData: cards.SUCCESS, amount: 100, currency: 'NGN', reference: 'card-ok' },
				{ ...person, cardData: cards.PIN, amount: 100, currency: 'NGN', reference: 'card-pin' },
				{ ...person, cardData: cards.OTP, amount: 100, currency: 'NGN', reference: 'card-otp' },
				{ ...person, cardData: cards.THREE_DS, amount: 100, currency: 'NGN', reference: 'card-3ds' },
				{ ...person, cardData: '4111 1111 1111 1111', amount: 100, currency: 'NGN', reference: 'card-raw' },
				{ ...person, cardData: Buffer.from('4111111111111111|12|30|123').toString('base64'), amount: 100, currency: 'NGN', reference: 'card-plain' },
				{ ...person, cardData: cards.SUCCESS, amount: 100, currency: 'NAIRA', reference: 'card-cur' },
				{ ...person, cardData: cards.SUCCESS, amount: -1, currency: 'NGN', reference: 'card-neg' },
			],
		);
		const { ok, errors } = outcome(execution);
		expect(errors).toEqual([
			'"Encrypted Card Data" looks like a raw card number: encrypt the card details with the PayOnUs RSA public key and give the Base64 result; never put raw card numbers in a workflow [item 4]',
			'"Encrypted Card Data" must be the card details RSA-encrypted with the PayOnUs public key and Base64-encoded (at least 88 characters of A-Z, a-z, 0-9, + and /) [item 5]',
			'"Currency" must be a 3-letter currency code such as NGN, KES or ZAR [item 6]',
			'"Amount" must be greater than 0 [item 7]',
		]);
		expect(ok.map((o) => [o.authTypeRequired ?? null, o.paymentStatus])).toEqual([
			[null, 'SUCCESSFUL'],
			['PIN', expect.any(String)],
			['OTP', expect.any(String)],
			['THREE_DS', expect.any(String)],
		]);
		expect(ok[0].nextStep).toBe('Nothing more to do: the card was charged.');
		expect(ok[1].nextStep).toMatch(/collect the PIN/);
		expect(ok[2].nextStep).toMatch(/OTP was sent/);
		expect(ok[3].nextStep).toContain(`Send the customer to ${String(ok[3].redirectUrl)}`);
		const output = JSON.stringify(nodeItems(execution, NODE));
		for (const blob of Object.values(cards)) expect(output).not.toContain(blob);
		// The raw card number must not come back in any form. (Not the bare
		// substring "4111": service references carry millisecond timestamps
		// that contain it by chance.)
		expect(output).not.toMatch(/4111[ -]?1111[ -]?1111[ -]?1111/);
		expect(output).not.toContain(Buffer.from('4111111111111111|12|30|123').toString('base64'));

		const requests = await payin.sb.requests();
		expect(requests.map((r) => (r.body as IDataObject).reference)).toEqual(['card-ok', 'card-pin', 'card-otp', 'card-3ds']);
		expect(requests[0].body).toMatchObject({
			amount: 100,
			currency: 'NGN',
			businessId: 'BUS-2001',
			narration: 'Order',
			redirectUrl: 'https://shop.example.com/back',
			customer: { name: 'Ada Obi', email: 'ada@example.com' },
		});
		expect(JSON.stringify(requests)).not.toContain('4111 1111');
	});

	it('Charge Tokenized Card: charges a stored card; every spec error becomes a plain message', async () => {
		// A token for BUS-2001 and one for BUS-2002, through the consent flow.
		const makeToken = async (businessId: string, ref: string, pan = '4111111111111111') => {
			const link = await api<IDataObject>('POST', '/api/v1/card-tokenization-links', {
				businessId,
				merchantReference: ref,
				customer: { name: 'Ada Obi', email: 'ada@example.com' },
			});
			const done = await payin.sb.control<IDataObject>('POST', `/links/${String(link.id)}/submit`, { cardNumber: pan, expiry: '12/30', cvv: '123' });
			return String((done.link as IDataObject).cardTokenId);
		};
		const token = await makeToken('BUS-2001', 'tok-e2e-1');
		const otherBusiness = await makeToken('BUS-2002', 'tok-e2e-2');
		const deleted = await makeToken('BUS-2001', 'tok-e2e-3');
		await api('DELETE', `/api/v1/card-tokens/${deleted}?businessId=BUS-2001`);
		const expired = await makeToken('BUS-2001', 'tok-e2e-4');
		await payin.sb.expireCardToken(expired);

		const execution = await run(
			'charge tokenized card',
			{
				resource: 'payin',
				operation: 'chargeTokenizedCard',
				// one item at a time: the request log is read in item order below
				options: { moneyMovingConcurrency: 1 },
				businessId: business('BUS-2001'),
				cardTokenId: e('token'),
				amount: e('amount'),
				reference: e('reference'),
				additionalFields: { narration: 'Monthly plan' },
			},
			[
				{ token, amount: 1, reference: 'tk-1' },
				{ token: 'no-such-token', amount: 5, reference: 'tk-2' },
				{ token: otherBusiness, amount: 5, reference: 'tk-3' },
				{ token, amount: 5, reference: 'tk-1' },
				{ token: deleted, amount: 5, reference: 'tk-5' },
				{ token: expired, amount: 5, reference: 'tk-6' },
				{ token, amount: 0.5, reference: 'tk-7' },
				{ token: '', amount: 5, reference: 'tk-8' },
			],
		);
		const { ok, errors } = outcome(execution);
		expect(ok).toHaveLength(1);
		expect(ok[0]).toMatchObject({ paymentStatus: 'SUCCESSFUL', authTypeRequired: null });
		expect(String(ok[0].onusReference)).toMatch(/^ONUS-TKPY-/);
		expect(errors[0]).toBe('"Card Token ID" "no-such-token" was not found: no card token has this id. Check the id (Get Many Card Tokens lists them). Nothing was charged. [item 1]');
		expect(errors[1]).toBe('"Card Token ID" belongs to another business than BUS-2001: charge it with the business that stored the card. Nothing was charged. [item 2]');
		expect(errors[2]).toMatch(/^"Reference" "tk-1" was already used for this business \(duplicate reference\): this charge was NOT made again\. The earlier payment is ONUS-TKPY-/);
		expect(errors[3]).toMatch(/^"Card Token ID" was deleted and can no longer be charged/);
		expect(errors[4]).toMatch(/^"Card Token ID" has expired/);
		expect(errors.slice(5)).toEqual(['"Amount" must be at least 1 [item 6]', '"Card Token ID" is required [item 7]']);

		const charges = (await payin.sb.requests()).filter((r) => r.path === '/api/v1/card-payments/with-token');
		expect(charges.map((r) => [(r.body as IDataObject).reference, r.status])).toEqual([
			['tk-1', 200],
			['tk-2', 404],
			['tk-3', 403],
			['tk-1', 409],
			['tk-5', 410],
			['tk-6', 422],
		]);
		expect(charges[0].body).toEqual({ businessId: 'BUS-2001', cardTokenId: token, amount: 1, reference: 'tk-1', narration: 'Monthly plan' });
	});
});
