/**
 * What the real-network bench runs and seeds:
 * the Get Payment and Create Transfer calls as the PayOnUs node and as the
 * HTTP Request node with the payOnUsApi credential, and one payin per item.
 * Not a bench itself (bench/run.ts only loads *.bench.js).
 */
import type { IDataObject } from 'n8n-workflow';
import type { Pool } from 'undici';
import { inParallel } from './common';

export const PAYMENT_PATH = '/api/v1/payment-requests/businesses/BUS-2001';
export const TRANSFER_PATH = '/api/v1/transfer-requests/bank-transfer';

type Credentials = { payOnUsApi: { id: string; name: string } };

/** Creates `count` dynamic-account payins (`${prefix}-${i}`) of BUS-2001, 8 at a time: their onusReferences, in order. */
export async function createPayins(pool: Pool, token: string, count: number, prefix: string): Promise<string[]> {
	const refs: string[] = new Array(count);
	await inParallel(count, 8, async (i) => {
		const res = await pool.request({
			method: 'POST',
			path: '/api/v1/virtual-accounts/dynamic',
			headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
			body: JSON.stringify({ amount: 100 + (i % 900), reference: `${prefix}-${i}`, businessId: 'BUS-2001', customer: { name: 'Bench', email: 'bench@example.com' } }),
		});
		const body = (await res.body.json()) as { data?: { onusReference?: string } };
		if (res.statusCode !== 200 || !body.data?.onusReference) throw new Error(`creating payin ${i} got ${res.statusCode}`);
		refs[i] = body.data.onusReference;
	});
	return refs;
}

/** The body of a 100 NGN bank transfer from BUS-2001 to the always-successful test account. */
export function transferBody(reference: string): IDataObject {
	return {
		transferType: 'WALLET_TO_BANK_ACCOUNT',
		amount: 100,
		currency: 'NGN',
		countryCode: 'NG',
		reference,
		narration: 'bench',
		businessId: 'BUS-2001',
		beneficiaryAccountNumber: '9999991112',
		beneficiaryAccountName: 'Sandbox Success Beneficiary',
		beneficiaryBankCode: '044',
	};
}

/** PayOnUs: Get Payment of the item's `onusReference`. */
export function payOnUsGetPayment(credentials: Credentials, options?: IDataObject): IDataObject {
	return {
		type: 'n8n-nodes-payonus.payOnUs',
		typeVersion: 1,
		credentials,
		parameters: {
			resource: 'payin',
			operation: 'getPayment',
			businessId: { __rl: true, mode: 'id', value: 'BUS-2001' },
			onusReference: '={{ $json.onusReference }}',
			...(options ? { options } : {}),
		},
	};
}

/**
 * HTTP Request: the same read with the payOnUsApi credential. It starts every
 * item's request at once: n8n's HttpRequestV3 collects the requests' promises
 * and awaits them together, and Options > Batching only sleeps its interval
 * between batches (with no interval it changes nothing), so it cannot run at
 * a given concurrency.
 */
export function httpGetPayment(credentials: Credentials, baseUrl: string): IDataObject {
	return {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		credentials,
		parameters: {
			method: 'GET',
			url: `${baseUrl}${PAYMENT_PATH}`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'payOnUsApi',
			sendQuery: true,
			queryParameters: { parameters: [{ name: 'onusReference', value: '={{ $json.onusReference }}' }] },
			options: {},
		},
	};
}

/** PayOnUs: Create Transfer (transferBody) with the item's `reference`, `moneyMovingConcurrency` in flight (undefined: its default). */
export function payOnUsCreateTransfer(credentials: Credentials, moneyMovingConcurrency: number | undefined): IDataObject {
	return {
		type: 'n8n-nodes-payonus.payOnUs',
		typeVersion: 1,
		credentials,
		parameters: {
			resource: 'payout',
			operation: 'createTransfer',
			transferType: 'WALLET_TO_BANK_ACCOUNT',
			businessId: { __rl: true, mode: 'id', value: 'BUS-2001' },
			amount: 100,
			currency: 'NGN',
			countryCode: 'NG',
			reference: '={{ $json.reference }}',
			beneficiaryBankCode: '044',
			beneficiaryAccountNumber: '9999991112',
			beneficiaryAccountName: 'Sandbox Success Beneficiary',
			narration: 'bench',
			// The name is verified first by default: off, so the calls compare with the HTTP Request node's.
			verifyBeneficiaryName: false,
			...(moneyMovingConcurrency !== undefined ? { options: { moneyMovingConcurrency } } : {}),
		},
	};
}

/** HTTP Request: the same transfer with the payOnUsApi credential (every item at once, as httpGetPayment). */
export function httpCreateTransfer(credentials: Credentials, baseUrl: string): IDataObject {
	return {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		credentials,
		parameters: {
			method: 'POST',
			url: `${baseUrl}${TRANSFER_PATH}`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'payOnUsApi',
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody: `={{ JSON.stringify(Object.assign(${JSON.stringify(transferBody('x'))}, { reference: $json.reference })) }}`,
			options: {},
		},
	};
}
