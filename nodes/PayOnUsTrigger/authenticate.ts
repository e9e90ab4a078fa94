import { NodeOperationError, type IDataObject, type IWebhookFunctions } from 'n8n-workflow';
import * as n8nWorkflow from 'n8n-workflow';
import type { PayOnUsCredential } from '../shared/credential/read';
import { verifyWebhookHash } from '../shared/signature';
import type { RequestCredential } from '../shared/credential/perRequest';
import { refusal, type Answer } from './emit';
import { isSafeId, isSigned, type Notification } from './notification';

/**
 * Step 2 of receive.ts (authenticate), before anything else is decided.
 *
 * COLLECTION, PAYOUT and REFUND go on only with a `hash` header equal to
 * SHA-256(accountNumber + onusReference + paymentStatus + key); anything else
 * gets 401 and starts nothing. The key is the credential's Webhook
 * Verification Key, from the request's read of the credential (credential.ts:
 * a recent read, read again before a refusal); the hash is compared
 * by the pure verifySigned (nodes/shared/signature.ts). The key never leaves
 * this module: it is not logged, output or put in errors. Card tokenization
 * notifications are not signed: their link id must be a safe id (400
 * otherwise); the link is read back in tokenization.ts.
 */

/** Whether the `hash` header signs the body's three signed fields under the key. */
export function verifySigned(body: IDataObject, hashHeader: string | string[] | undefined, key: string): boolean {
	return verifyWebhookHash(
		{ accountNumber: body.accountNumber, onusReference: body.onusReference, paymentStatus: body.paymentStatus },
		hashHeader,
		key,
	);
}

/** What the check needs of n8n: the request's credential, and the error for a credential without a key. */
export interface KeySource {
	credential: RequestCredential;
	missing: () => Error;
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

/** The trigger's credential (this request's read) as the key source. */
export function keySourceOf(ctx: IWebhookFunctions, credential: RequestCredential): KeySource {
	return { credential, missing: () => missingKeyError(ctx) };
}

/** The credential's key, '' when it has none. */
function keyOf(credential: PayOnUsCredential | undefined): string {
	return credential?.webhookVerificationKey ?? '';
}

/**
 * Whether the `hash` header signs the body under the credential's key: the
 * request's read first; when that does not verify and was not read during
 * this request, a read made now. Throws (n8n answers 500) when the
 * credential, read now, has no key at all.
 */
export async function signatureValid(
	keys: KeySource,
	body: IDataObject,
	hashHeader: string | string[] | undefined,
): Promise<boolean> {
	const verifies = (key: string) => key.length > 0 && verifySigned(body, hashHeader, key);
	const { credential, readHere } = await keys.credential.current();
	if (verifies(keyOf(credential))) return true;
	const key = keyOf(readHere ? credential : await keys.credential.readNow());
	if (key.length === 0) throw keys.missing();
	return verifies(key);
}

/** Undefined when the notification is authentic enough to go on, else the refusal. */
export async function authenticate(
	notification: Notification,
	hashHeader: string | string[] | undefined,
	keys: KeySource,
): Promise<Answer | undefined> {
	const { event, body } = notification;
	if (isSigned(event)) {
		return (await signatureValid(keys, body, hashHeader)) ? undefined : refusal(401, 'Signature missing or wrong');
	}
	return isSafeId(body.cardTokenizationLinkId) ? undefined : refusal(400, 'cardTokenizationLinkId missing or malformed');
}
