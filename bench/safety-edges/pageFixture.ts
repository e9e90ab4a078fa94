/**
 * A bank-transfer Payment Page checkout against the local sandbox through the
 * real transport (NGN 5,000, business BUS-2001), for the page areas of
 * safety-edges (webhooks.ts, pagePrice.ts). Exports no `area`.
 */
import type { IDataObject } from 'n8n-workflow';
import type { SandboxHandle } from '../../sandbox/server';
import { PayOnUsApi } from '../../credentials/PayOnUsApi.credentials';
import { Checkout, type PageConfig } from '../../nodes/PayOnUsPaymentPage/checkout';
import { deriveKey, seal } from '../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { createClient } from '../../nodes/shared/transport';
import { CredentialStore, FakeN8n, sandboxCredential } from '../../dev/inProcessN8n';

export interface BankPage {
	checkout: Checkout;
	config: PageConfig;
	emitted: IDataObject[];
}

export async function bankPage(sb: SandboxHandle): Promise<BankPage> {
	const fake = new FakeN8n(new CredentialStore(sandboxCredential(sb.url)), new PayOnUsApi());
	const client = await createClient(fake.context() as never);
	const config: PageConfig = {
		title: 'Ticket',
		description: '',
		businessId: 'BUS-2001',
		currency: 'NGN',
		amountMode: 'fixed',
		amount: 5000,
		minAmount: 0,
		maxAmount: 0,
		methods: ['bank'],
		askName: 'optional',
		askPhone: 'no',
		onSuccess: 'message',
		successMessage: 'Thanks',
		redirectUrl: '',
		expiryMinutes: 30,
		cardPublicKey: '',
		cardCipherBytes: 256,
		narration: 'Ticket',
		networks: [],
		eftBanks: [],
	};
	const key = deriveKey('safety-edges', 'wf|node');
	const emitted: IDataObject[] = [];
	const checkout = new Checkout({
		client,
		config,
		now: () => Date.now(),
		pageUrl: 'http://n8n.test/webhook/pay',
		seal: (s) => seal(s, key),
		emit: (item) => {
			emitted.push(item);
			return true;
		},
		warn: () => undefined,
	});
	return { checkout, config, emitted };
}
