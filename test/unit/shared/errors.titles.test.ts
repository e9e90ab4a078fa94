/**
 * Issue 31, point 2: every error the service can give reads as the
 * builder's thing, not our internals. For every operation the nodes call
 * (the spec's "Endpoints", as nodes/shared/api/paths.ts names them) x every
 * status the spec documents for it (the Errors table: 400, 401, 403, 404,
 * 429, 5xx for all; 409 where a reference is carried; 410 and 422 for card
 * charges), in the service's error shape naming the field (as the sandbox
 * does) and with no words at all, the error the transport builds
 * (nodes/shared/errors/requestError.ts) has:
 * - a title of at most 12 words, without a service path, that names the
 *   thing (the operation's subject, or the field's label);
 * - a description whose first sentence says what to do;
 * - then the details: the service's words, when it said some.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { MAX_TITLE_WORDS, requestError, wordCount, type FailedCall } from '../../../nodes/shared/errors';
import { PATHS } from '../../../nodes/shared/api/paths';
import { subjectOfPath } from '../../../nodes/shared/format';

const node = { id: '1', name: 'PayOnUs', type: 'n8n-nodes-payonus.payOnUs', typeVersion: 1, position: [0, 0], parameters: {} } as INode;

interface Operation {
	name: string;
	method: string;
	path: string;
	params: IDataObject;
	/** Carries a merchant reference (409 documented), moves money. */
	reference?: boolean;
	moneyMoving?: boolean;
	/** Card charges: 410 (token deleted) and 422 (token expired, business not profiled). */
	card?: boolean;
}

const B = { businessId: 'BUS-2001' };
const OPERATIONS: Operation[] = [
	{ name: 'Get Payment', method: 'GET', path: PATHS.paymentRequestOfBusiness('BUS-2001'), params: { onusReference: 'ONUS-NUB-1' } },
	{ name: 'List Payments', method: 'GET', path: PATHS.paymentRequests, params: { ...B, status: 'SUCCESSFUL' } },
	{ name: 'Create Dynamic Account', method: 'POST', path: PATHS.dynamicAccount, params: { ...B, reference: 'inv-1', amount: 5000 }, reference: true, moneyMoving: true },
	{ name: 'Create Fixed Account', method: 'POST', path: PATHS.fixedAccount, params: { ...B, reference: 'fx-1' }, reference: true, moneyMoving: true },
	{ name: 'Charge Card', method: 'POST', path: PATHS.cardPayments, params: { ...B, reference: 'card-1', amount: 200, currency: 'NGN', cardData: 'ENCRYPTED' }, reference: true, moneyMoving: true, card: true },
	{ name: 'Charge Stored Card', method: 'POST', path: PATHS.storedCardCharge, params: { ...B, reference: 'tok-1', amount: 300, cardTokenId: 'TOK-1' }, reference: true, moneyMoving: true, card: true },
	{ name: 'Complete Card Payment', method: 'POST', path: PATHS.cardPaymentComplete, params: { ...B, onusReference: 'ONUS-CARD-1', cardAuthType: 'PIN' } },
	{ name: 'Mobile Money Collection', method: 'POST', path: PATHS.mobileMoneyCollection, params: { ...B, reference: 'mm-1', amount: 50, momoNetwork: 'MPESA_KE', customer: { phone: '+254700000000' } }, reference: true, moneyMoving: true },
	{ name: 'Verify Mobile Money OTP', method: 'POST', path: PATHS.mobileMoneyVerifyOtp, params: { ...B, onusReference: 'ONUS-MMO-1' } },
	{ name: 'List Mobile Money Networks', method: 'GET', path: PATHS.mobileMoneyNetworks, params: { currency: 'KES' } },
	{ name: 'Collect EFT Payment', method: 'POST', path: PATHS.eftPayment, params: { ...B, reference: 'eft-1', amount: 60, bank: '250655' }, reference: true, moneyMoving: true },
	{ name: 'List EFT Banks', method: 'GET', path: PATHS.eftBanks, params: {} },
	{ name: 'Simulate Payment', method: 'POST', path: PATHS.fundNgnAccount, params: { onusReference: 'ONUS-NUB-1', accountNumber: '0123456789', amount: 5000 } },
	{ name: 'List Wallets', method: 'GET', path: PATHS.merchantWallets('MER-1001'), params: { merchantId: 'MER-1001' } },
	{ name: 'Name Enquiry', method: 'POST', path: PATHS.nameEnquiry, params: { ...B, institutionCode: '044', accountNumber: '0123456789', currency: 'NGN' } },
	{ name: 'Create Transfer', method: 'POST', path: PATHS.bankTransfer, params: { ...B, reference: 'pay-1', amount: 1500, currency: 'NGN', beneficiaryAccountNumber: '0123456789' }, reference: true, moneyMoving: true },
	{ name: 'Create Bulk Transfer', method: 'POST', path: PATHS.bulkBankTransfer, params: { ...B, reference: 'batch-1', currency: 'NGN' }, reference: true, moneyMoving: true },
	{ name: 'Get Transfer / Search Transfers', method: 'GET', path: PATHS.transferRequests, params: { merchantId: 'MER-1001', onusReference: 'ONUS-TRNF-1' } },
	{ name: 'List Banks', method: 'GET', path: PATHS.banks, params: { key: 'ZAR' } },
	{ name: 'Create Tokenization Link', method: 'POST', path: PATHS.links, params: { ...B, merchantReference: 'link-1' }, reference: true },
	{ name: 'Get Link', method: 'GET', path: PATHS.link('LNK-1'), params: { ...B } },
	{ name: 'Get Link by Reference', method: 'GET', path: PATHS.linkByReference('link-1'), params: { ...B } },
	{ name: 'Search Links', method: 'GET', path: PATHS.links, params: { merchantId: 'MER-1001' } },
	{ name: 'Search Card Tokens', method: 'GET', path: PATHS.storedCards, params: { merchantId: 'MER-1001' } },
	{ name: 'Delete Card Token', method: 'DELETE', path: PATHS.storedCard('TOK-1'), params: { ...B } },
];

function statuses(op: Operation): number[] {
	return [400, 401, 403, 404, 429, 500, ...(op.reference ? [409] : []), ...(op.card ? [410, 422] : [])];
}

/** The first of `fields` the request carries (the field a service error would name). */
function fieldOf(op: Operation, fields: string[]): string | undefined {
	return fields.find((f) => op.params[f] !== undefined);
}

/** The service's error body for a status, naming a field the way the sandbox does (`field: words`). */
function serviceBody(op: Operation, status: number): IDataObject {
	const said = (message: string, field?: string, words?: string) => ({
		status,
		message,
		data: { statusCode: status, errors: field ? [`${field}: ${words}`] : [] },
	});
	switch (status) {
		case 400: {
			const field = fieldOf(op, ['amount', 'reference', 'merchantReference', 'onusReference', 'accountNumber', 'currency', 'key', 'businessId', 'merchantId']);
			return said('Validation failed', field, 'is invalid');
		}
		case 401:
			return said('Invalid access token');
		case 403: {
			const field = fieldOf(op, ['businessId', 'merchantId']);
			return said('Insufficient authority', field, 'does not belong to your merchant');
		}
		case 404: {
			const field = fieldOf(op, ['cardTokenId', 'onusReference', 'businessId', 'merchantId']);
			return said('Not found', field, 'not found');
		}
		case 409:
			return said('Duplicate reference: already used for this business');
		case 410:
			return said('Card token deleted', 'cardTokenId', 'was deleted');
		case 422:
			return said('Card token expired', 'cardTokenId', 'expired');
		case 429:
			return said('Too many requests');
		default:
			return said('Internal server error');
	}
}

const LABELS = ['Business', 'Merchant', 'Reference', 'Stored card', 'Amount', 'PayOnUs reference', 'Account number', 'Currency', 'wallet', 'credential'];

function check(op: Operation, status: number, body: unknown): string[] {
	const call: FailedCall = {
		method: op.method,
		path: op.path,
		baseUrl: 'https://core-sandbox.payonus.com',
		timeoutMs: 30_000,
		secrets: [],
		params: op.params,
		...(op.moneyMoving ? { reference: String(op.params.reference) } : {}),
	};
	const error = requestError(node, { kind: status === 401 ? 'auth' : 'http', status, body }, call);
	const title = error.message;
	const description = String(error.description ?? '');
	const problems: string[] = [];
	if (wordCount(title) > MAX_TITLE_WORDS) problems.push(`title of ${wordCount(title)} words: ${title}`);
	if (/\/api\//.test(title)) problems.push(`title shows a path: ${title}`);
	const subject = subjectOfPath(op.path);
	if (!title.toLowerCase().includes(subject.toLowerCase()) && !LABELS.some((l) => title.includes(l))) problems.push(`title names no thing: ${title}`);
	const first = description.split(/(?<=\.)\s/)[0] ?? '';
	if (!/^(Check|Correct|Wait|Try|Store|Enable|Nothing was sent again|A reference can be used|Set)\b/.test(first)) problems.push(`no "what to do" line first: ${description}`);
	const words = (body as IDataObject | undefined)?.message;
	if (words && status !== 409 && !description.includes('PayOnUs said:')) problems.push(`the service's words are missing: ${description}`);
	return problems;
}

const CASES = OPERATIONS.flatMap((op) => statuses(op).map((status) => [op.name, status] as const));

describe('service errors: a short title naming the thing and the field, then what to do, then the details (issue 31)', () => {
	it.each(CASES)('%s, %i: in the service error shape naming the field', (name, status) => {
		const op = OPERATIONS.find((o) => o.name === name)!;
		expect(check(op, status, serviceBody(op, status))).toEqual([]);
	});

	it.each(CASES)('%s, %i: with no body at all', (name, status) => {
		const op = OPERATIONS.find((o) => o.name === name)!;
		expect(check(op, status, undefined)).toEqual([]);
	});

	it('an error the service states without a status (in a 200) has a title naming the thing and what to do', () => {
		for (const op of OPERATIONS) {
			const error = requestError(node, { kind: 'http', stated: true, body: { success: false, message: 'Business BUS-9999 not found' } }, {
				method: op.method, path: op.path, baseUrl: 'x', timeoutMs: 1, secrets: [], params: { ...op.params, businessId: 'BUS-9999' },
			});
			expect(wordCount(error.message)).toBeLessThanOrEqual(MAX_TITLE_WORDS);
			expect(error.message).toContain('Business "BUS-9999"');
			expect(error.description).toMatch(/^Correct Business \("BUS-9999"\) as PayOnUs says below, then run the item again\. PayOnUs said: Business BUS-9999 not found\.$/);
		}
	});

	it('names the business in the words of issue 31', () => {
		const error = requestError(
			node,
			{ kind: 'http', status: 404, body: { status: 404, message: 'Business BUS-9999 not found', data: { statusCode: 404, errors: ['businessId: business BUS-9999 not found'] } } },
			{ method: 'POST', path: PATHS.nameEnquiry, baseUrl: 'x', timeoutMs: 1, secrets: [], params: { businessId: 'BUS-9999', accountNumber: '0123456789' } },
		);
		expect(error.message).toBe('Business "BUS-9999" not found');
		expect(error.description).toBe(
			'Check Business: it must exist in this environment (sandbox or production) and belong to this merchant. PayOnUs said: Business BUS-9999 not found; businessId: business BUS-9999 not found.',
		);
	});

	it('counts: every operation x documented status, in two shapes', () => {
		// 25 operations; 6 statuses each, 409 for the 9 that carry a reference, 410 and 422 for the 2 card charges.
		expect(OPERATIONS).toHaveLength(25);
		expect(CASES).toHaveLength(25 * 6 + 9 + 2 * 2);
	});
});

/**
 * Issue 38, point 1: every documented error whose cause is the state of an
 * account, not a field (the spec's Errors table and Limits: a balance too
 * low, a currency's wallet not enabled, payouts switched off for a wallet,
 * this server's IP not whitelisted, a limit of the wallet, card
 * tokenization not enabled, a stored card deleted or expired, a business not
 * on the card gateway, a payment already past the step called; and the
 * business switched off the issue names), for every operation that can meet
 * it, in the words the sandbox uses (test/sandbox/accountState.test.ts checks
 * it answers so): the title names the cause, with the service's numbers; it
 * never blames a field ("... is invalid", "Correct ..."); the description
 * says what to do first, then the service's words.
 */
interface StateCase {
	op: string;
	status: number | undefined;
	message: string;
	errors: string[];
	title: string | RegExp;
	todo: RegExp;
}

const BALANCE = 'Insufficient wallet balance: NGN 10029747.87 available, 15000053.75 needed (amount plus fee)';
const PAYOUT_STATES = (op: string, field: string, rowLimit: string): StateCase[] => [
	{
		op, status: 400, message: BALANCE,
		errors: [`${field}: insufficient balance in the NGN wallet (available 10029747.87, needed 15000053.75)`],
		title: 'Insufficient wallet balance: NGN 10,029,747.87 available, 15,000,053.75 needed (amount plus fee)',
		todo: /^Check the NGN wallet of business BUS-2001: add funds or pay less/,
	},
	...[404, 400, undefined].map((status) => ({
		op, status, message: 'Wallet not found for currency NGN', errors: ['currency: no NGN wallet is enabled for business BUS-2001'],
		title: 'NGN wallet not found for business "BUS-2001"', todo: /^Enable the NGN wallet of business BUS-2001 on the PayOnUs dashboard/,
	})),
	{
		op, status: 403, message: 'Payouts are not allowed from wallet WAL-1', errors: ['currency: payouts disabled'],
		title: 'Payouts are switched off for the NGN wallet of business BUS-2001', todo: /^Check the NGN wallet of business BUS-2001 on the PayOnUs dashboard .*allow payouts/,
	},
	{
		op, status: 403, message: 'Wallet WAL-1 is inactive', errors: [],
		title: 'The NGN wallet of business BUS-2001 is not active', todo: /^Check the NGN wallet of business BUS-2001/,
	},
	{
		op, status: 403, message: 'IP address 203.0.113.5 is not whitelisted for payouts', errors: [],
		title: "This n8n server's IP address is not whitelisted at PayOnUs", todo: /^Check the IP whitelist on the PayOnUs dashboard/,
	},
	{
		op, status: 400, message: rowLimit, errors: [rowLimit],
		title: rowLimit.replace(/^[a-z]+: /, '').replace(/^./, (c) => c.toUpperCase()).replace('20000000', '20,000,000'),
		todo: /^Check the limits of the wallet and business/,
	},
	{
		op, status: 403, message: 'Business BUS-2001 is inactive', errors: ['businessId: business is deactivated'],
		title: 'Business "BUS-2001" is not active in PayOnUs', todo: /^Check the business on the PayOnUs dashboard/,
	},
];

const STATE_CASES: StateCase[] = [
	...PAYOUT_STATES('Create Transfer', 'amount', 'amount exceeds maxSinglePayout 20000000 of the NGN wallet'),
	...PAYOUT_STATES('Create Bulk Transfer', 'file', 'file row 1 amount: exceeds maxSinglePayout 20000000'),
	{
		op: 'Name Enquiry', status: 403, message: 'IP address 203.0.113.5 is not whitelisted for payouts', errors: [],
		title: "This n8n server's IP address is not whitelisted at PayOnUs", todo: /^Check the IP whitelist/,
	},
	...['Create Dynamic Account', 'Mobile Money Collection', 'Collect EFT Payment', 'Charge Card', 'Charge Stored Card'].map((op) => ({
		op, status: 403, message: 'Business BUS-2001 is inactive', errors: [],
		title: 'Business "BUS-2001" is not active in PayOnUs', todo: /^Check the business on the PayOnUs dashboard/,
	})),
	{ op: 'Charge Stored Card', status: 410, message: 'Card token deleted', errors: ['cardTokenId: card token was deleted'], title: 'Stored card "TOK-1" was deleted', todo: /^Store the card again/ },
	{ op: 'Charge Stored Card', status: 422, message: 'Card token expired on 2026-01-31', errors: ['cardTokenId: card token expired'], title: 'Stored card "TOK-1" expired', todo: /^Store the card again/ },
	...['Charge Stored Card', 'Charge Card'].map((op) => ({
		op, status: 422, message: 'Business BUS-2001 is not profiled on the NGN card gateway', errors: [],
		title: 'Business "BUS-2001" cannot take card payments yet', todo: /^Check with PayOnUs that the business is profiled on the NGN card gateway/,
	})),
	...['Charge Stored Card', 'Create Tokenization Link', 'Search Links', 'Search Card Tokens'].map((op) => ({
		op, status: 403, message: 'Card tokenization is not enabled for business BUS-2001', errors: ['businessId: card tokenization not enabled'],
		title: op.startsWith('Search') ? 'Card tokenization is not enabled for this business' : 'Card tokenization is not enabled for business "BUS-2001"',
		todo: /^Check with PayOnUs that card tokenization is enabled/,
	})),
	{
		op: 'Simulate Payment', status: 409, message: 'Payment ONUS-NUB-1 is already SUCCESSFUL', errors: ['onusReference: payment is already SUCCESSFUL'],
		title: 'Payment ONUS-NUB-1 is already SUCCESSFUL', todo: /^Check its current status \(Get Payment or Get Transfer\)/,
	},
	{
		op: 'Verify Mobile Money OTP', status: 409, message: 'Payment ONUS-MMO-1 is not awaiting an OTP (SUCCESSFUL)', errors: ['onusReference: not awaiting an OTP'],
		title: 'Payment ONUS-MMO-1 is not awaiting an OTP (SUCCESSFUL)', todo: /^Check its current status/,
	},
	{
		op: 'Complete Card Payment', status: 409, message: 'Payment ONUS-CARD-1 is not awaiting completion (SUCCESSFUL)', errors: ['onusReference: not awaiting completion'],
		title: 'Payment ONUS-CARD-1 is not awaiting completion (SUCCESSFUL)', todo: /^Check its current status/,
	},
];

describe('service errors caused by the state of an account: the title is the cause (issue 38)', () => {
	it.each(STATE_CASES.map((c) => [c.op, c.status ?? 'no status', c.message, c] as const))('%s, %s: %s', (_name, _status, _message, c) => {
		const op = OPERATIONS.find((o) => o.name === c.op)!;
		const body = { status: c.status ?? 400, message: c.message, data: { statusCode: c.status ?? 400, errors: c.errors } };
		const failure = c.status === undefined ? { kind: 'http' as const, stated: true, body: { ...body, success: false } } : { kind: 'http' as const, status: c.status, body };
		const error = requestError(node, failure, {
			method: op.method, path: op.path, baseUrl: 'x', timeoutMs: 1, secrets: [], params: op.params,
			...(op.moneyMoving ? { reference: String(op.params.reference) } : {}),
		});
		if (typeof c.title === 'string') expect(error.message).toBe(c.title);
		else expect(error.message).toMatch(c.title);
		expect(wordCount(error.message)).toBeLessThanOrEqual(MAX_TITLE_WORDS);
		expect(error.message).not.toMatch(/is invalid|^Correct|\/api\//);
		expect(error.description).toMatch(c.todo);
		expect(error.description).not.toMatch(/^Correct/);
		expect(error.description).toContain(`PayOnUs said: ${c.message}`);
	});

	it('the issue\'s transfer above the balance: the balance is the title, the amount is not blamed', () => {
		const error = requestError(
			node,
			{ kind: 'http', status: 400, body: { status: 400, message: BALANCE, data: { statusCode: 400, errors: ['amount: insufficient balance in the NGN wallet (available 10029747.87, needed 15000053.75)'] } } },
			{ method: 'POST', path: PATHS.bankTransfer, baseUrl: 'x', timeoutMs: 1, secrets: [], reference: 'pay-1', params: { businessId: 'BUS-2001', reference: 'pay-1', amount: 15000000, currency: 'NGN' } },
		);
		expect(error.message).toBe('Insufficient wallet balance: NGN 10,029,747.87 available, 15,000,053.75 needed (amount plus fee)');
		expect(error.description).not.toContain('Correct Amount');
	});

	it('a field rule that mentions a maximum stays the field\'s (not an account limit)', () => {
		const op = OPERATIONS.find((o) => o.name === 'Create Transfer')!;
		const error = requestError(
			node,
			{ kind: 'http', status: 400, body: { status: 400, message: 'narration exceeds the maximum length of 100 characters', data: { errors: ['narration: exceeds the maximum length of 100 characters'] } } },
			{ method: op.method, path: op.path, baseUrl: 'x', timeoutMs: 1, secrets: [], params: { ...op.params, narration: 'x'.repeat(120) } },
		);
		expect(error.message).toMatch(/^PayOnUs refused the transfer: Narration ".*" is invalid$/);
	});

	it('counts: every documented account-state error of every operation that meets it', () => {
		expect(STATE_CASES).toHaveLength(2 * 9 + 1 + 5 + 2 + 2 + 4 + 3);
		const ops = new Set(STATE_CASES.map((c) => c.op));
		for (const op of ops) expect(OPERATIONS.some((o) => o.name === op)).toBe(true);
	});
});
