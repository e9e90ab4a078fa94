/**
 * The sandbox's control client (sandbox/client.ts) as API client 2 (n8n's
 * credential uses client 1, so set-up calls never retire its token), with the
 * set-up scenarios the trigger tests and the webhook drills
 * (bench/webhook-drills.bench.ts) share: each call makes one kind of webhook event
 * happen in the sandbox.
 */
import type { IDataObject } from 'n8n-workflow';
import { SandboxClient } from '../sandbox/client';

export class SandboxApi extends SandboxClient {
	constructor(url: string) {
		super(url, { apiClientId: 'sandbox-client-2', apiClientSecret: 'sandbox-secret-2' });
	}

	/** A dynamic-account payin, paid: one COLLECTION. */
	async collection(reference: string, amount = 1500, businessId = 'BUS-2001'): Promise<IDataObject> {
		const account = await this.unpaidPayin(reference, amount, businessId);
		await this.api('POST', '/api/v1/fund-ngn-account', {
			onusReference: account.onusReference,
			accountNumber: account.accountNumber,
			amount,
			paymentStatus: 'SUCCESSFUL',
			forDynamicAccount: true,
		});
		return account;
	}

	/** A dynamic-account payin left unpaid (polling tests: created, no webhook). */
	async unpaidPayin(reference: string, amount = 1000, businessId = 'BUS-2001'): Promise<IDataObject> {
		return await this.api<IDataObject>('POST', '/api/v1/virtual-accounts/dynamic', {
			amount,
			reference,
			businessId,
			customer: { name: 'Ada Obi', email: 'ada@example.com', phone: '+2348000000001' },
		});
	}

	/**
	 * A bank transfer to the always-successful test account (`fail`: to 9999991113,
	 * which the sandbox fails): one PAYOUT when it settles.
	 */
	async payout(
		reference: string,
		amount = 100,
		businessId = 'BUS-2001',
		{ fail = false, narration = 'e2e payout' }: { fail?: boolean; narration?: string } = {},
	): Promise<IDataObject> {
		return await this.api<IDataObject>('POST', '/api/v1/transfer-requests/bank-transfer', {
			amount,
			beneficiaryAccountNumber: fail ? '9999991113' : '9999991112',
			beneficiaryAccountName: 'Sandbox Beneficiary',
			beneficiaryBankCode: '044',
			transferType: 'WALLET_TO_BANK_ACCOUNT',
			countryCode: 'NG',
			currency: 'NGN',
			reference,
			narration,
			businessId,
		});
	}

	async refund(paymentOnusReference: string, reference: string, businessId = 'BUS-2001'): Promise<IDataObject> {
		return await this.api<IDataObject>('POST', '/api/v1/refunds/bank-transfer', {
			onusReference: paymentOnusReference,
			businessId,
			reference,
			reason: 'e2e refund',
		});
	}

	/** A tokenization link completed by the "customer": one card_tokenization_link.completed. */
	async tokenization(merchantReference: string, businessId = 'BUS-2001'): Promise<IDataObject> {
		const link = await this.api<IDataObject>('POST', '/api/v1/card-tokenization-links', {
			businessId,
			merchantReference,
			customer: { name: 'Ada Obi', email: 'ada@example.com' },
		});
		await this.submitLink(String(link.id), { cardNumber: '4111111111111111', expiry: '12/30', cvv: '123' });
		return link;
	}
}
