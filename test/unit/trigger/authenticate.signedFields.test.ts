/**
 * Rule 7 at the webhook door (issue 36): the hash covers accountNumber +
 * onusReference + paymentStatus written one after another, so characters
 * moved across a field boundary keep it valid. Such a notification, and any
 * whose signed fields are not each in the service's form, is refused like a
 * forgery (401, nothing started), with Confirm With the Service on or off
 * and for refunds (never read back). A key made only of spaces verifies
 * nothing. Each of these started a run on main before this change.
 */
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { fakeClient } from '../fakes/transport';
jest.mock('../../../nodes/shared/transport', () => jest.requireActual('../fakes/transport'));
import { KEY, resetNotifications, serveRecords, serviceRecord, webhookRequest } from '../fakes/notifications';

const hashOf = (b: IDataObject, key = KEY) =>
	createHash('sha256')
		.update(`${b.accountNumber === undefined ? '' : String(b.accountNumber)}${String(b.onusReference)}${String(b.paymentStatus)}${key}`)
		.digest('hex');

const REF = 'ONUS-NUB-1000000000042-15012026-100000';
const genuine = (over: IDataObject = {}): IDataObject => ({
	type: 'COLLECTION',
	currency: 'NGN',
	businessId: 'BUS-2001',
	accountNumber: '0123456789',
	onusReference: REF,
	paymentStatus: 'SUCCESSFUL',
	transactionAmount: 5000,
	...over,
});

/** The genuine notification with its boundaries moved: the same characters, so the same hash. */
const SHIFTS: Array<[string, IDataObject]> = [
	['last account digit moved into the reference', { accountNumber: '012345678', onusReference: `9${REF}` }],
	['"ONUS" moved into the account number', { accountNumber: '0123456789ONUS', onusReference: REF.slice(4) }],
	['whole account number moved into the reference', { accountNumber: '', onusReference: `0123456789${REF}` }],
	['last reference digit moved into the status', { onusReference: REF.slice(0, -1), paymentStatus: `0SUCCESSFUL` }],
	['status letters moved into the reference', { onusReference: `${REF}SUCCESS`, paymentStatus: 'FUL' }],
	['everything in the account number', { accountNumber: `0123456789${REF}SUCCESSFUL`, onusReference: '', paymentStatus: '' }],
];

async function deliver(body: IDataObject, opts: { confirm?: boolean; key?: string; signingKey?: string; staticData?: IDataObject } = {}) {
	return await webhookRequest({
		body,
		hash: hashOf(body, opts.signingKey ?? opts.key ?? KEY),
		params: { events: ['COLLECTION', 'PAYOUT', 'REFUND'], options: {}, confirmWithService: opts.confirm ?? false },
		key: opts.key,
		staticData: opts.staticData,
	});
}

beforeEach(() => {
	resetNotifications();
	serveRecords([serviceRecord()]);
});

describe('PayOnUs Trigger: signed fields read one way', () => {
	it.each(SHIFTS)('Confirm off: a boundary-shifted copy with a valid hash is refused like a forgery (%s)', async (_name, shift) => {
		const staticData = {};
		const first = await deliver(genuine(), { staticData });
		expect(first.response.status).toBe(200);
		expect(first.confirmed).toHaveLength(1);

		const shifted = genuine(shift);
		expect(hashOf(shifted)).toBe(hashOf(genuine())); // the same signed text
		const copy = await deliver(shifted, { staticData });
		expect(copy.response).toEqual({ status: 401, body: { received: false, message: 'Signature missing or wrong' }, answers: 1 });
		expect(copy.result.workflowData).toBeUndefined();
		expect(copy.warnings).toHaveLength(1);
		expect(copy.warnings[0]).toMatch(/valid hash was refused \(401\): its (accountNumber|onusReference|paymentStatus) is not/);
		expect(copy.warnings[0]).not.toContain('0123456789');
	});

	it('a REFUND (never read back) shifted across a boundary starts nothing', async () => {
		const refund = genuine({ type: 'REFUND', onusReference: 'ONUS-RFND-1000000000043-15012026-110000' });
		expect((await deliver(refund)).confirmed).toHaveLength(1);
		const shifted = { ...refund, accountNumber: '012345678', onusReference: `9${String(refund.onusReference)}` };
		const copy = await deliver(shifted);
		expect(copy.response.status).toBe(401);
		expect(copy.result.workflowData).toBeUndefined();
	});

	it('Confirm on: a shifted copy is refused before the service is read (no Unconfirmed run either)', async () => {
		const copy = await deliver(genuine(SHIFTS[0][1]), { confirm: true });
		expect(copy.response.status).toBe(401);
		expect(copy.result.workflowData).toBeUndefined();
		expect(fakeClient.request).not.toHaveBeenCalled();
	});

	it.each([
		['an account number sent as a number (a lost leading zero)', { accountNumber: 123456789 }],
		['an account number with a space', { accountNumber: '0123 456789' }],
		['an account number with letters', { accountNumber: 'ACC0123456789' }],
		['a reference with 12 digits', { onusReference: 'ONUS-NUB-100000000004-15012026-100000' }],
		['a reference of another prefix', { onusReference: 'PAY-NUB-1000000000042-15012026-100000' }],
		['a reference in lower case', { onusReference: REF.toLowerCase() }],
		['a reference stamped on no real day', { onusReference: 'ONUS-NUB-1000000000042-31022026-100000' }],
		['a status in lower case', { paymentStatus: 'successful' }],
		['a status the spec does not list', { paymentStatus: 'PAID' }],
		['no status', { paymentStatus: undefined }],
	])('refuses %s, whatever its hash', async (_name, over) => {
		const out = await deliver(genuine(over));
		expect(out.response.status).toBe(401);
		expect(out.result.workflowData).toBeUndefined();
	});

	it.each([
		['a NUBAN', '0123456789'],
		['an international phone number (mobile money)', '+254700000001'],
		['a local phone number', '0240000003'],
		['a masked card number', '411111******1111'],
		['no account number (a card payin may have none)', ''],
		['no accountNumber field', undefined],
	])('accepts the account number forms the service sends: %s', async (_name, accountNumber) => {
		const out = await deliver(genuine({ accountNumber }));
		expect(out.response.status).toBe(200);
		expect(out.confirmed).toHaveLength(1);
	});
});

describe('PayOnUs Trigger: a verification key that cannot verify', () => {
	it.each([
		['only spaces', '   ', /made only of spaces/],
		['a tab and a line break', '\t\n', /made only of spaces/],
		['spaces around it', ' whk-simplify-key ', /spaces or line breaks at its start or end/],
	])('a key of %s refuses everything, even a body signed under it (n8n answers 500, naming what to fix)', async (_name, key, message) => {
		await expect(deliver(genuine(), { key })).rejects.toThrow(message);
		await expect(deliver(genuine(), { key, signingKey: KEY.trim() })).rejects.toThrow(message);
	});
});
