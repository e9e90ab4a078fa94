/**
 * Issue 23, errors for people: short titles in the user's terms (no service
 * path, field labels, formatted amounts), what to do in the description,
 * the service's words and the request path under details, every invalid
 * field of an item at once.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { z } from 'zod/v3';
import { requestError, summarizeHttpError, type Failure } from '../../../nodes/shared/errors';
import { sendMoneyMoving, type MoneyCaller } from '../../../nodes/shared/moneyMoving';
import type { RequestOptions } from '../../../nodes/shared/clientInterface';
import type { MoneyMovingOptions } from '../../../nodes/shared/moneyMoving';
import { describeIssues } from '../../../nodes/shared/validation';
import { invalidInputError } from '../../../nodes/PayOnUs/run/failures';
import { findOperation } from '../../../nodes/PayOnUs/resources';
import { formatAmount } from '../../../nodes/shared/format';
import { bankTransfer } from '../../../nodes/PayOnUs/resources/payout/createTransfer';

const node = { id: '1', name: 'PayOnUs', type: 'n8n-nodes-payonus.payOnUs', typeVersion: 1, position: [0, 0], parameters: {} } as INode;
const MAX_TITLE = 110;

function expectGoodTitle(title: string) {
	expect(title.length).toBeLessThanOrEqual(MAX_TITLE);
	expect(title).not.toMatch(/\/api\//);
	expect(title).not.toMatch(/\b(GET|POST|DELETE|PUT)\b/);
	expect(title).not.toMatch(/failed with \d{3}/);
}

const record: IDataObject = {
	onusReference: 'ONUS-TRNF-0000000000001-23112026-120000',
	merchantReference: 'payout-0001',
	amount: 1500,
	currency: 'NGN',
	beneficiaryAccountNumber: '0123456789',
	paymentStatus: 'SUCCESSFUL',
};

/** A money-moving caller whose POST answers 409 (the body the sandbox sends) and whose lookup finds `found`. */
function conflictCaller(): MoneyCaller {
	const call = { method: 'POST', path: '/api/v1/transfer-requests/bank-transfer', baseUrl: 'https://x', timeoutMs: 30_000, reference: 'payout-0001', secrets: [] };
	return {
		attempt: async () => {
			throw Object.assign(new Error('409'), {
				response: { status: 409, data: { status: 409, message: 'Merchant reference payout-0001 already used. Reference already used for this business' } },
			});
		},
		error: (f: Failure, _o: RequestOptions, extra) => requestError(node, f, call, extra),
		outcomeError: () => {
			throw new Error('not expected');
		},
		secrets: () => [],
		pause: async () => {},
		backoff: () => 0,
		limits: { lookupAttempts: 1, moneyMovingResends: 0, pushBackRetries: 0 },
	};
}

const opts: RequestOptions = { method: 'POST', path: '/api/v1/transfer-requests/bank-transfer' };

function moneyMoving(found: IDataObject | undefined, diff: string[] = []): MoneyMovingOptions {
	return { reference: 'payout-0001', noun: 'transfer', proof: bankTransfer.proof, lookup: async () => found, check: () => diff };
}

describe('HTTP error titles', () => {
	it.each([400, 401, 403, 404, 409, 410, 422, 429, 500, 503, 302])('%i: a short title without the service path', (status) => {
		const s = summarizeHttpError(status, { message: 'something' }, { method: 'GET', path: '/api/v1/payment-requests/businesses/BUS-2001' });
		expectGoodTitle(s.message);
	});

	it('404 names what was not found, in words', () => {
		const s = summarizeHttpError(404, { message: 'not found' }, { method: 'GET', path: '/api/v1/payment-requests/businesses/BUS-2001' });
		expect(s.message).toBe('Payment not found in PayOnUs');
		expect(s.description).toMatch(/^Check the reference or ID.*PayOnUs said: not found\.$/);
	});

	it('keeps the service words and the request path under details, not in the title', () => {
		const f: Failure = { kind: 'http', status: 404, body: { message: 'Payment request not found' } };
		const e = requestError(node, f, { method: 'GET', path: '/api/v1/payment-requests/businesses/BUS-2001', baseUrl: 'https://x', timeoutMs: 1, secrets: [] });
		expectGoodTitle(e.message);
		expect(e.context.request).toBe('GET /api/v1/payment-requests/businesses/BUS-2001');
		expect(e.context.serviceMessage).toBe('Payment request not found');
	});
});

describe('a duplicate reference (409 on a first attempt)', () => {
	it('the same transfer again: "Already paid", the existing record in the title, once, with its amount formatted', async () => {
		const error = (await sendMoneyMoving(conflictCaller(), opts, moneyMoving(record)).catch((e: unknown) => e)) as Error & {
			description: string;
			context: IDataObject;
		};
		expect(error.message).toBe('Already paid: reference "payout-0001" is transfer ONUS-TRNF-0000000000001-23112026-120000 (SUCCESSFUL, NGN 1,500.00)');
		expectGoodTitle(error.message.replace('ONUS-TRNF-0000000000001-23112026-120000', 'ONUS-…'));
		// Said once, and what to do.
		expect(`${error.message} ${error.description}`.match(/already used/gi) ?? []).toHaveLength(0);
		expect(error.description).toContain('nothing was sent again');
		// once: no generic 409 hint after it ("Nothing was sent again. Check the transaction ... before doing anything else")
		expect(error.description.match(/nothing was sent again/gi) ?? []).toHaveLength(1);
		expect(error.description).not.toContain('before doing anything else');
		expect(error.description).toContain('to 0123456789');
		// The record itself, for the error item under continue-on-fail; the service's words for support.
		expect(error.context.existingRecord).toMatchObject({ onusReference: record.onusReference });
		expect(error.context.outcome).toBe('alreadyDone');
		expect(error.context.serviceMessage).toContain('already used');
		expect(error.context.request).toBe('POST /api/v1/transfer-requests/bank-transfer');
	});

	it('a different transfer holds the reference: says so, nothing sent', async () => {
		const error = (await sendMoneyMoving(conflictCaller(), opts, moneyMoving({ ...record, amount: 900 }, ['amount 900 (requested 1500)'])).catch(
			(e: unknown) => e,
		)) as Error & { description: string };
		expect(error.message).toBe('Reference "payout-0001" is already used by a different transfer: ONUS-TRNF-0000000000001-23112026-120000 (SUCCESSFUL, NGN 900.00)');
		expect(error.description).toMatch(/^Nothing was sent for this item/);
		expect(error.description).toContain('amount 900 (requested 1500)');
	});

	it('no record found: the reference was used, check it', async () => {
		const error = (await sendMoneyMoving(conflictCaller(), opts, moneyMoving(undefined)).catch((e: unknown) => e)) as Error;
		expect(error.message).toBe('Reference "payout-0001" was already used for this business');
		expectGoodTitle(error.message);
	});
});

describe('validation: labels, every field at once', () => {
	const createTransfer = findOperation('payout', 'createTransfer')!;

	it('lists every invalid field of the item, by the labels the node shows', () => {
		const parsed = createTransfer.schema.safeParse({ transferType: 'WALLET_TO_BANK_ACCOUNT', amount: 0, currency: 'NGN', countryCode: 'NG', reference: 'r-1', beneficiaryAccountNumber: '0123456789', beneficiaryBankCode: '044', beneficiaryAccountName: '', narration: '', businessId: 'BUS-2001' });
		expect(parsed.success).toBe(false);
		const error = invalidInputError(node, createTransfer, (parsed as z.SafeParseError<unknown>).error, 0);
		expect(error.message).toBe('3 fields to fix: Amount, Beneficiary Account Name, Narration');
		expectGoodTitle(error.message);
		expect(error.description).toBe('"Amount" must be greater than 0. "Beneficiary Account Name" is required. "Narration" is required.');
		expect(error.message + error.description).not.toMatch(/beneficiaryAccountName|Item \d/);
		expect(error.context.itemIndex).toBe(0);
	});

	it('one invalid field: the title is the sentence; a field inside a collection by its own label', () => {
		const listPayments = findOperation('payin', 'listPayments')!;
		const parsed = listPayments.schema.safeParse({ returnAll: true, filters: { fromDate: '2024-05-02', toDate: '2024-05-01' } });
		const problems = describeIssues((parsed as z.SafeParseError<unknown>).error, (p) => (p === 'filters.toDate' ? 'To Date' : p));
		expect(problems.title).toBe('"To Date" must not be before "From Date"');
		const error = invalidInputError(node, listPayments, (parsed as z.SafeParseError<unknown>).error, 2);
		expect(error.message).toBe('"To Date" must not be before "From Date"');
		expect(error.context.itemIndex).toBe(2);
	});
});

describe('amounts in words', () => {
	it('formats with the currency, grouped, 2 decimals', () => {
		expect(formatAmount(10029607, 'NGN')).toBe('NGN 10,029,607.00');
		expect(formatAmount('1500.5', 'kes')).toBe('KES 1,500.50');
	});
});

describe('PayOnUs references are shown whole', () => {
	it('an ONUS reference is not masked as a card number; a card number still is', () => {
		const { redactText } = jest.requireActual('../../../nodes/shared/redact') as typeof import('../../../nodes/shared/redact');
		expect(redactText('transfer ONUS-TRNF-0000000000001-23112026-120000 done')).toBe('transfer ONUS-TRNF-0000000000001-23112026-120000 done');
		expect(redactText('card 4111 1111 1111 1111 and ONUS-NUB-1234567890123-31052024-101500')).toBe('card ****1111 and ONUS-NUB-1234567890123-31052024-101500');
	});
});
