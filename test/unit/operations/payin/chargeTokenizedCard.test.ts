import { chargeTokenizedCard as op } from '../../../../nodes/PayOnUs/resources/payin/chargeTokenizedCard';
import { PayOnUsInputError } from '../../../../nodes/PayOnUs/resources/types';
import { context, FakeClient, httpError } from '../../fakes';
import { parsed, problem } from './helpers';

const good = {
	businessId: 'BUS-2001',
	cardTokenId: 'CT-1',
	amount: 1,
	reference: 'tk-1',
	additionalFields: { narration: 'Subscription', notificationUrl: 'https://hooks.example/x' },
};

describe('payin: charge tokenized card', () => {
	it('sends the documented body with money-moving safety', async () => {
		const data = { authTypeRequired: null, paymentStatus: 'SUCCESSFUL', onusReference: 'ONUS-TKPY-1', redirectUrl: null, message: 'Approved' };
		const client = new FakeClient().respond('POST', '/api/v1/card-payments/with-token', data);
		const out = await op.execute(context(client), parsed(op.schema, good));
		expect(client.requests[0].body).toEqual({
			businessId: 'BUS-2001',
			cardTokenId: 'CT-1',
			amount: 1,
			reference: 'tk-1',
			narration: 'Subscription',
			notificationUrl: 'https://hooks.example/x',
		});
		expect(client.requests[0].moneyMoving?.reference).toBe('tk-1');
		expect(out).toEqual(data);
	});

	it.each([
		[404, {}, 'cardTokenId', /"CT-1" was not found/],
		[403, {}, 'cardTokenId', /belongs to another business than BUS-2001/],
		[409, { existingRecord: { onusReference: 'ONUS-TKPY-0', paymentStatus: 'SUCCESSFUL' } }, 'reference', /already used.*NOT made again.*ONUS-TKPY-0 \(status SUCCESSFUL\)/],
		[410, {}, 'cardTokenId', /was deleted/],
		[422, { serviceResponse: { message: 'Card token expired on 2024-01-31' } }, 'cardTokenId', /has expired/],
	])('turns %i into a message naming the field', async (status, ctx, field, text) => {
		const client = new FakeClient().respond('POST', '/api/v1/card-payments/with-token', () => {
			throw httpError(status, 'PayOnUs failed', ctx);
		});
		const error = await op.execute(context(client), parsed(op.schema, good)).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(PayOnUsInputError);
		expect((error as PayOnUsInputError).field).toBe(field);
		expect((error as Error).message).toMatch(text);
	});

	it('tells the gateway-profile 422 apart from an expired token', async () => {
		const client = new FakeClient().respond('POST', '/api/v1/card-payments/with-token', () => {
			const e = httpError(422, 'failed with 422: the card token expired, or the business is not profiled on the card gateway') as Error & { description: string };
			e.description = 'The service said: Business is not profiled on the NGN card gateway';
			throw e;
		});
		const error = (await op.execute(context(client), parsed(op.schema, good)).catch((e: unknown) => e)) as PayOnUsInputError;
		expect(error.field).toBe('businessId');
		expect(error.message).toMatch(/not set up \(profiled\)/);
	});

	it('passes other errors through unchanged', async () => {
		const original = httpError(500);
		const client = new FakeClient().respond('POST', '/api/v1/card-payments/with-token', () => {
			throw original;
		});
		await expect(op.execute(context(client), parsed(op.schema, good))).rejects.toBe(original);
	});

	it.each([
		[{ amount: 0.99 }, '"amount" must be at least 1'],
		[{ amount: 0 }, '"amount" must be at least 1'],
		[{ amount: 1.234 }, '"amount" must have at most 2 decimal places'],
		[{ cardTokenId: '' }, '"cardTokenId" is required'],
		[{ cardTokenId: 'a/b' }, '"cardTokenId" must be an identifier'],
		[{ reference: '' }, '"reference" is required'],
		[{ additionalFields: { notificationUrl: 'hooks.example' } }, '"additionalFields.notificationUrl" must be a web address'],
	])('refuses %j', (patch, message) => {
		expect(problem(op.schema, { ...good, ...patch })).toContain(message);
	});
});
