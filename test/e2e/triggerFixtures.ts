/**
 * Shared by the trigger e2e tests and the drills (bench/webhook-drills.bench.ts,
 * bench/poll-drill.bench.ts): the sandbox client with the trigger tests' set-up
 * scenarios (its own API client, so it never invalidates the token n8n's
 * credential holds), and the workflow
 * and credential fixtures of the two triggers.
 */
import type { IDataObject } from 'n8n-workflow';
import { SandboxClient } from '../../sandbox/client';
import type { N8nClient, WorkflowJson } from '../harness/e2e';
import { sandboxCredentialData } from '../harness/fixtures';
import { n8nVersionAtLeast } from '../harness/n8n';
import { useSandboxAndN8n, type SandboxAndN8n } from '../harness/sandboxAndN8n';

export const KEY = 'e2e-webhook-verification-key';
export const PACKAGE = 'n8n-nodes-payonus';

/**
 * The sandbox client (sandbox/client.ts) as API client 2 (n8n's credential
 * uses client 1, so set-up calls never retire its token), with the set-up
 * scenarios of the trigger tests: each makes one kind of webhook event.
 */
export class SandboxApi extends SandboxClient {
	constructor(url: string) {
		super(url, { apiClientId: 'sandbox-client-2', apiClientSecret: 'sandbox-secret-2' });
	}

	/** A dynamic-account payin, paid: one COLLECTION. */
	async collection(reference: string, amount = 1500, businessId = 'BUS-2001'): Promise<IDataObject> {
		const account = await this.api<IDataObject>('POST', '/api/v1/virtual-accounts/dynamic', {
			amount,
			reference,
			businessId,
			customer: { name: 'Ada Obi', email: 'ada@example.com', phone: '+2348000000001' },
		});
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

	/** A bank transfer to the always-successful test account: one PAYOUT when it settles. */
	async payout(reference: string, amount = 100, businessId = 'BUS-2001'): Promise<IDataObject> {
		return await this.api<IDataObject>('POST', '/api/v1/transfer-requests/bank-transfer', {
			amount,
			beneficiaryAccountNumber: '9999991112',
			beneficiaryAccountName: 'Sandbox Beneficiary',
			beneficiaryBankCode: '044',
			transferType: 'WALLET_TO_BANK_ACCOUNT',
			countryCode: 'NG',
			currency: 'NGN',
			reference,
			narration: 'e2e payout',
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

export async function createCredential(n8n: N8nClient, sandboxUrl: string, name: string, key = KEY): Promise<string> {
	const { id } = await n8n.createCredential({ name, type: 'payOnUsApi', data: sandboxCredentialData(sandboxUrl, { webhookVerificationKey: key }) });
	return id;
}

/**
 * The trigger files' set-up (test/harness/sandboxAndN8n.ts): a sandbox, its
 * SandboxApi as `sb`, a credential with KEY; the file's workflows are
 * deactivated after it.
 */
export function useTriggerSandbox(label: string): SandboxAndN8n<SandboxApi> {
	return useSandboxAndN8n(label, {
		client: (url) => new SandboxApi(url),
		credential: { webhookVerificationKey: KEY },
		workflows: 'deactivate',
	});
}

export const TRIGGER_NAME = 'PayOnUs Trigger';
export const POLL_NAME = 'PayOnUs Poll Trigger';

export function triggerWorkflow(name: string, webhookId: string, credentialId: string, parameters: IDataObject = {}): WorkflowJson {
	return {
		name,
		nodes: [
			{
				id: `node-${webhookId}`,
				name: TRIGGER_NAME,
				type: `${PACKAGE}.payOnUsTrigger`,
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters: {
					events: ['COLLECTION', 'PAYOUT', 'REFUND', 'card_tokenization_link.completed'],
					confirmTokenization: true,
					options: {},
					...parameters,
				},
				credentials: { payOnUsApi: { id: credentialId, name: 'PayOnUs' } },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all' },
	};
}

/**
 * The poll trigger on a custom cron whose seconds field lists values (n8n
 * 2.8.4 only refuses a `*` in the seconds field), e.g. every 5 s.
 */
/**
 * n8n 2.8 polls as often as a cron says; newer n8n refuses anything under a
 * minute ("The polling interval is too short"), so there the tests poll once a
 * minute, at a second chosen to come soon after activation.
 */
export const SUB_MINUTE_POLLS = !n8nVersionAtLeast(2, 20);

/** Time between two polls of pollWorkflow(..., everySeconds) on the n8n under test. */
export function pollPeriodMs(everySeconds: number): number {
	return SUB_MINUTE_POLLS ? everySeconds * 1000 : 60_000;
}

function pollCron(everySeconds: number): string {
	if (!SUB_MINUTE_POLLS) return `${(new Date().getSeconds() + 15) % 60} * * * * *`;
	const seconds: number[] = [];
	for (let s = 0; s < 60; s += everySeconds) seconds.push(s);
	return `${seconds.join(',')} * * * * *`;
}

export function pollWorkflow(name: string, credentialId: string, everySeconds: number, parameters: IDataObject = {}): WorkflowJson {
	return {
		name,
		nodes: [
			{
				id: `poll-${name.replace(/\W+/g, '-')}`,
				name: POLL_NAME,
				type: `${PACKAGE}.payOnUsPollTrigger`,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [{ mode: 'custom', cronExpression: pollCron(everySeconds) }] },
					watch: ['payins', 'payouts'],
					merchantId: '',
					options: {},
					...parameters,
				},
				credentials: { payOnUsApi: { id: credentialId, name: 'PayOnUs' } },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all' },
	};
}
