import { NodeOperationError, type IDataObject, type IWebhookFunctions } from 'n8n-workflow';
import * as n8nWorkflow from 'n8n-workflow';
import type { PayOnUsCredential } from '../shared/credential/read';
import { verifyWebhookHash } from '../shared/signature';
import { keyProblem, signedFieldsProblem } from '../shared/signedFields';
import type { RequestCredential } from '../shared/webhookCredential';
import { refusal, type Answer } from './emit';
import { isSafeId, isSigned, type Notification } from './notification';

/**
 * Step 2 of receive.ts (authenticate), before anything else is decided.
 *
 * COLLECTION, PAYOUT and REFUND go on only with a `hash` header equal to
 * SHA-256(accountNumber + onusReference + paymentStatus + key) AND each of
 * those three fields in the service's form (rule 7 at the webhook door,
 * nodes/shared/signedFields.ts: fields written one after another, so a
 * boundary moved between them keeps the hash and would make another event);
 * anything else gets 401 and starts nothing (a valid hash over fields out of
 * their form is also logged as a warning, naming the field). The key is the credential's Webhook
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

/** What the check needs of n8n: the request's credential, and the error for a credential whose key cannot verify (`problem`: what is wrong with it). */
export interface KeySource {
	credential: RequestCredential;
	missing: (problem?: string) => Error;
}

/**
 * Raised on a notification that cannot be verified because the credential has
 * no key. n8n answers the sender 500 (with this message where n8n supports
 * configuration errors) and lists a failed execution with the message, which
 * the workflow's error workflow also receives. Activation itself does not
 * refuse: n8n >= 2.3x activates in the background, where a refusal only
 * reaches the server log and leaves the webhook answering 404.
 */
function missingKeyError(ctx: IWebhookFunctions, problem = 'has no Webhook Verification Key'): Error {
	const description =
		'Copy the Webhook Verification Key from the PayOnUs dashboard (same environment as this credential) into the credential, exactly, with no spaces around it. Until then no notification can be verified, so none starts the workflow; the service is answered 500 and may retry.';
	const message = `The PayOnUs credential ${problem}: the notification was refused`;
	// n8n >= 2.2x returns the message of a WorkflowConfigurationError to the caller; older n8n answers a generic 500.
	const ConfigurationError = (n8nWorkflow as unknown as Record<string, typeof NodeOperationError | undefined>)
		.WorkflowConfigurationError;
	const ErrorClass = ConfigurationError ?? NodeOperationError;
	return new ErrorClass(ctx.getNode(), message, { description });
}

/** The trigger's credential (this request's read) as the key source. */
export function keySourceOf(ctx: IWebhookFunctions, credential: RequestCredential): KeySource {
	return { credential, missing: (problem) => missingKeyError(ctx, problem) };
}

/** The credential's key, '' when it has none. */
function keyOf(credential: PayOnUsCredential | undefined): string {
	return credential?.webhookVerificationKey ?? '';
}

/**
 * Whether the `hash` header signs the body under the credential's key: the
 * request's read first; when that does not verify and was not read during
 * this request, a read made now. Throws (n8n answers 500) when the
 * credential, read now, has no key that can verify anything (none, only
 * spaces, spaces at its ends: keyProblem, nodes/shared/signedFields.ts).
 */
export async function signatureValid(
	keys: KeySource,
	body: IDataObject,
	hashHeader: string | string[] | undefined,
): Promise<boolean> {
	const verifies = (key: string) => keyProblem(key) === undefined && verifySigned(body, hashHeader, key);
	const { credential, readHere } = await keys.credential.current();
	if (verifies(keyOf(credential))) return true;
	const key = keyOf(readHere ? credential : await keys.credential.readNow());
	const problem = keyProblem(key);
	if (problem !== undefined) throw keys.missing(problem);
	return verifies(key);
}

const FORGED = 'Signature missing or wrong';

/**
 * Undefined when the notification is authentic enough to go on, else the
 * refusal. A signed event whose hash is right but whose signed fields are
 * not each in their form is answered like a forgery (the same 401): it is
 * one (a genuine notification with its field boundaries moved), or the
 * service changed a form, which `warn` tells the operator.
 */
export async function authenticate(
	notification: Notification,
	hashHeader: string | string[] | undefined,
	keys: KeySource,
	warn: (message: string) => void = () => undefined,
): Promise<Answer | undefined> {
	const { event, body } = notification;
	if (isSigned(event)) {
		if (!(await signatureValid(keys, body, hashHeader))) return refusal(401, FORGED);
		const problem = signedFieldsProblem(body);
		if (problem === undefined) return undefined;
		warn(`PayOnUs Trigger: a ${event} notification with a valid hash was refused (401): its ${problem}; no execution started`);
		return refusal(401, FORGED);
	}
	return isSafeId(body.cardTokenizationLinkId) ? undefined : refusal(400, 'cardTokenizationLinkId missing or malformed');
}
