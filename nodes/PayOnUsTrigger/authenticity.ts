import { NodeOperationError, type IDataObject, type IWebhookFunctions } from 'n8n-workflow';
import * as n8nWorkflow from 'n8n-workflow';
import { readCredential } from '../shared/credential/read';
import { verificationKeys } from './keyCache';
import { verifySigned } from './delivery';

/**
 * The n8n side of a signed notification's check: the Webhook Verification
 * Key read from the credential (remembered briefly: keyCache.ts), the hash
 * compared by the pure verifySigned (delivery.ts, shared/signature.ts). The
 * key never leaves this module: it is not logged, output or put in errors.
 */

async function verificationKey(ctx: IWebhookFunctions): Promise<string> {
	return (await readCredential(ctx))?.webhookVerificationKey ?? '';
}

/**
 * Raised on a notification that cannot be verified because the credential has
 * no key. n8n answers the sender 500 (with this message where n8n supports
 * configuration errors) and lists a failed execution with the message, which
 * the workflow's error workflow also receives. Activation itself does not
 * refuse: n8n >= 2.3x activates in the background, where a refusal only
 * reaches the server log and leaves the webhook answering 404.
 */
function missingKeyError(ctx: IWebhookFunctions): Error {
	const description =
		'Copy the Webhook Verification Key from the PayOnUs dashboard (same environment as this credential) into the credential. Until then no notification can be verified, so none starts the workflow; the service is answered 500 and may retry.';
	const message = 'The PayOnUs credential has no Webhook Verification Key: the notification was refused';
	// n8n >= 2.2x returns the message of a WorkflowConfigurationError to the caller; older n8n answers a generic 500.
	const ConfigurationError = (n8nWorkflow as unknown as Record<string, typeof NodeOperationError | undefined>)
		.WorkflowConfigurationError;
	const ErrorClass = ConfigurationError ?? NodeOperationError;
	return new ErrorClass(ctx.getNode(), message, { description });
}

/**
 * Whether the `hash` header signs the body under the credential's key.
 * Throws (n8n answers 500) when the credential has no key at all.
 */
export async function signatureValid(
	ctx: IWebhookFunctions,
	body: IDataObject,
	hashHeader: string | string[] | undefined,
): Promise<boolean> {
	const credentialId = ctx.getNode().credentials?.payOnUsApi?.id ?? undefined;
	let keyMissing = false;
	const verified = await verificationKeys.verify(
		credentialId,
		async () => {
			const key = await verificationKey(ctx);
			keyMissing = key.length === 0;
			return key;
		},
		(key) => key.length > 0 && verifySigned(body, hashHeader, key),
	);
	if (!verified && keyMissing) throw missingKeyError(ctx);
	return verified;
}
