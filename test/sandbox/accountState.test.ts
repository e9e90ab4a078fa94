/**
 * Issue 38, point 1: the sandbox answers the account-state errors of the
 * spec (Limits: payouts need a sufficient balance; Errors: a payout in a
 * currency with no enabled wallet, tokenization not enabled 403, card token
 * deleted 410 and expired 422; a wallet's payouts switched off and its
 * single-payout limit, which the spec leaves to the service) and the node
 * titles each answer, as it came, with its cause, never a field
 * (nodes/shared/accountState.ts through errors/requestError.ts).
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { FormData, request } from 'undici';
import { requestError } from '../../nodes/shared/errors';
import { PATHS } from '../../nodes/shared/api/paths';
import { sandboxPerFile, ref, type Res } from './helpers';

const { c, sb } = sandboxPerFile();
const node = { id: '1', name: 'PayOnUs', type: 'n8n-nodes-payonus.payOnUs', typeVersion: 1, position: [0, 0], parameters: {} } as INode;

const transfer = (extra: Record<string, unknown> = {}) => ({
	amount: 1000,
	beneficiaryAccountNumber: '9999991112',
	beneficiaryAccountName: 'Sandbox Success Beneficiary',
	beneficiaryBankCode: '044',
	transferType: 'WALLET_TO_BANK_ACCOUNT',
	countryCode: 'NG',
	currency: 'NGN',
	reference: ref('po'),
	narration: 'Payout',
	businessId: 'BUS-2001',
	...extra,
});

/** The node's error for a sandbox answer. */
function titled(answer: Res, method: string, path: string, params: IDataObject) {
	const error = requestError(node, { kind: 'http', status: answer.status, body: answer.body }, {
		method, path, baseUrl: sb().url, timeoutMs: 1, secrets: [], params, reference: typeof params.reference === 'string' ? params.reference : undefined,
	});
	return { title: error.message, description: String(error.description) };
}

async function bulk(csv: string, parts: Record<string, string>): Promise<Res> {
	const form = new FormData();
	for (const [k, v] of Object.entries(parts)) form.append(k, v);
	form.append('file', new Blob([csv], { type: 'text/csv' }), 'batch.csv');
	if (!c.token) await c.login();
	const res = await request(`${sb().url}${PATHS.bulkBankTransfer}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${c.token}` } });
	return { status: res.statusCode, body: (await res.body.json()) as any, headers: {} } as unknown as Res;
}
const HEADER = 'beneficiaryAccountNumber,beneficiaryAccountName,beneficiaryBankCode,amount,narration\n';

describe('account states: the sandbox answers as the spec says, the node titles the cause', () => {
	test('a transfer above the balance: 400 with the balance and the amount plus fee; titled by the balance', async () => {
		const body = transfer({ amount: 15_000_000 });
		const r = await c.post(PATHS.bankTransfer, body);
		expect(r.status).toBe(400);
		expect(r.body.message).toMatch(/^Insufficient wallet balance: NGN \d+(\.\d+)? available, \d+(\.\d+)? needed \(amount plus fee\)$/);
		const { title, description } = titled(r, 'POST', PATHS.bankTransfer, body);
		expect(title).toMatch(/^Insufficient wallet balance: NGN \d{1,3}(,\d{3})*(\.\d+)? available, 15,000,\d{3}(\.\d+)? needed \(amount plus fee\)$/);
		expect(description).toMatch(/^Check the NGN wallet of business BUS-2001: add funds or pay less/);
		expect(`${title} ${description}`).not.toMatch(/Amount "15000000" is invalid|Correct Amount/);
	});

	test('a bulk batch above the balance: titled by the balance', async () => {
		const parts = { reference: ref('batch'), businessId: 'BUS-2001', currency: 'NGN' };
		const r = await bulk(`${HEADER}9999991112,Sandbox Success Beneficiary,044,9000000,a\n9999991112,Sandbox Success Beneficiary,044,9000001,b\n`, parts);
		expect(r.status).toBe(400);
		expect(titled(r, 'POST', PATHS.bulkBankTransfer, parts).title).toMatch(/^Insufficient wallet balance: NGN [\d,.]+ available, 18,000,\d{3}(\.\d+)? needed/);
	});

	test('a currency with no enabled wallet: wallet not found; titled by the wallet', async () => {
		const body = transfer({ currency: 'GHS', countryCode: 'GH', beneficiaryBankCode: '040100', beneficiaryAccountNumber: '1234567890' });
		const r = await c.post(PATHS.bankTransfer, body);
		expect(r.status).toBe(404);
		expect(titled(r, 'POST', PATHS.bankTransfer, body).title).toBe('GHS wallet not found for business "BUS-2001"');
	});

	test('payouts switched off for a wallet: 403; titled by the wallet, not the currency', async () => {
		sb().state.wallet('BUS-2001', 'NGN')!.payoutAllowed = false;
		const body = transfer();
		const r = await c.post(PATHS.bankTransfer, body);
		expect(r.status).toBe(403);
		const { title } = titled(r, 'POST', PATHS.bankTransfer, body);
		expect(title).toBe('Payouts are switched off for the NGN wallet of business BUS-2001');
	});

	test('over the wallet\'s single-payout limit: 400; titled by the limit', async () => {
		const body = transfer({ amount: 20_000_001 });
		const r = await c.post(PATHS.bankTransfer, body);
		expect(r.status).toBe(400);
		expect(titled(r, 'POST', PATHS.bankTransfer, body).title).toBe('Amount exceeds maxSinglePayout 20,000,000 of the NGN wallet');
	});

	test('card tokenization not enabled: 403; titled by tokenization', async () => {
		const body = { businessId: 'BUS-2003', customer: { name: 'A B', email: 'a@example.com' }, merchantReference: ref('link') };
		const r = await c.post(PATHS.links, body);
		expect(r.status).toBe(403);
		expect(titled(r, 'POST', PATHS.links, body).title).toBe('Card tokenization is not enabled for business "BUS-2003"');
	});

	test('a stored card deleted (410) or expired (422): titled by the card', async () => {
		const link = (await c.post(PATHS.links, { businessId: 'BUS-2001', customer: { name: 'A B', email: 'a@example.com' }, merchantReference: ref('link') })).body.data;
		const cardTokenId = (await c.control('POST', `/links/${link.id}/submit`, { cardNumber: '4111111111111111', expiry: '12/30', cvv: '123' })).body.data.cardTokenId;
		const charge = { businessId: 'BUS-2001', cardTokenId, amount: 50, reference: ref('chg') };
		await c.control('POST', `/tokens/${cardTokenId}/expire`);
		const expired = await c.post(PATHS.storedCardCharge, charge);
		expect(expired.status).toBe(422);
		expect(titled(expired, 'POST', PATHS.storedCardCharge, charge).title).toBe(`Stored card "${cardTokenId}" expired`);
		await c.del(`${PATHS.storedCard(cardTokenId)}?businessId=BUS-2001`);
		const deleted = await c.post(PATHS.storedCardCharge, { ...charge, reference: ref('chg') });
		expect(deleted.status).toBe(410);
		expect(titled(deleted, 'POST', PATHS.storedCardCharge, charge).title).toBe(`Stored card "${cardTokenId}" was deleted`);
	});
});
