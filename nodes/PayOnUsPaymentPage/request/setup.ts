import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import type { PayOnUsClient } from '../../shared/clientInterface';
import { createClient } from '../../shared/transport';
import type { PageConfig } from '../checkout/types';
import { requestCredentialOf } from '../../shared/webhookCredential';
import { clock } from '../clock';
import { lazyClient, pageCredential, takesTestPayments } from '../credential';
import type { DoorLimits } from './bounds';
import { buildConfig, chosenMethods, PageSetupError } from './config';
import { readSettings } from './settings';

/** The page set up for one request: its credential, its parameters, and what it can offer right now. */
export interface PageSetup {
	/** The key the checkout's state is sealed with (../checkout/sealedState.ts). */
	key: Buffer;
	config: PageConfig;
	/** Sandbox payments: every page says TEST MODE. */
	testMode: boolean;
	/** Created on its first call (a start page with its settings cached needs none). */
	client: PayOnUsClient;
	notPaidOutput: boolean;
	/** What one visitor, this page and one target may make the credential do per minute (./bounds.ts). */
	limits: DoorLimits;
}

/** The page's id, `workflowId|nodeId`: what its credential's key and its bounds (./bounds.ts) are kept under. */
export function pageIdOf(ctx: IWebhookFunctions): string {
	return `${String(ctx.getWorkflow().id ?? '')}|${ctx.getNode().id}`;
}

/** Throws PageSetupError with what to fix when the page cannot take payments. */
export async function setUpPage(ctx: IWebhookFunctions): Promise<PageSetup> {
	const node = ctx.getNode();
	const credentialId = node.credentials?.payOnUsApi?.id ?? '';
	// one read of the credential for this request, handed to every step (../credential.ts)
	const credential = requestCredentialOf(ctx, () => clock.now());
	const info = await pageCredential(credential, pageIdOf(ctx));
	if (typeof info === 'string') throw new PageSetupError(info);
	let clientPromise: Promise<PayOnUsClient> | undefined;
	const getClient = async (): Promise<PayOnUsClient> =>
		await (clientPromise ??= (async () => await createClient(ctx, { credential: await credential.forClient() }))());
	const settings = readSettings((name, fallback, options) => ctx.getNodeParameter(name, fallback, options), info, node.parameters as IDataObject);
	if (typeof settings.limits === 'string') throw new PageSetupError(settings.limits);
	const limits = settings.limits;
	const config = await buildConfig(getClient, info.merchantId, settings.parameters, credentialId);
	// A method chosen that needs a setting (card: its key) says why it is not offered.
	for (const m of chosenMethods(settings.parameters))
		if (m.needs.warn && !config.methods.includes(m.id))
			ctx.logger.warn(`PayOnUs Payment Page "${node.name}" does not offer ${m.needs.what}: it needs ${m.needs.needs}`);
	return {
		key: info.key,
		config,
		testMode: takesTestPayments(info),
		client: lazyClient(getClient, info),
		notPaidOutput: settings.notPaidOutput,
		limits,
	};
}
