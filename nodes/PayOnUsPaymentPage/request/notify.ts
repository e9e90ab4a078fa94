import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { statusOf } from '../../shared/errors';
import { boundAttemptOf, isThisPagesCheckout } from '../checkout/pageBound';
import { paidFromRecord } from '../checkout/fromRecord';
import { checkoutReference } from '../checkout/sealedState';
import { clock } from '../clock';
import { getPayin } from '../service';
import { send, type PageResponse } from './answer';
import { claimsOf, doorOf } from '../serve';
import { DoorClosed, type BoundedDoor } from './bounds';
import { PageSetupError } from './config';
import type { CheckoutClaims } from './emittedCheckouts';
import { NO_STORE } from './http';
import { emitting, PageOutputs } from './outputs';
import { setUpPage } from './setup';

/**
 * The page's notification door: `POST <page URL>/notify` with
 * `{ onusReference, merchantReference }`, sent by the receiving workflow
 * (the one whose PayOnUs Trigger has the environment's Webhook URL) for a
 * COLLECTION of a checkout (merchant reference `PP-...`). It starts the
 * page's workflow for a checkout the buyer paid and never came back to
 * (closed the tab, paid in another app), the same Paid item and the same
 * claim as the buyer's browser, so whichever path comes first starts it
 * and the other starts nothing.
 *
 * The forward is only a hint, never the word that something was paid:
 *  1. its references are read (bounded strings; anything else: 400);
 *  2. the checkout id must be this page's (checkout/pageBound.ts: no call,
 *     no state): another page's, an older unbound id, or a forged one is
 *     answered 200 `{started: false}` at no cost, so a receiver may forward
 *     every checkout payin to each of its pages;
 *  3. a checkout this process already started is answered without a call;
 *  4. the payin is read back with Get Payment through the page's bounded
 *     client (rule 4, ./bounds.ts: the forwarding address is the visitor;
 *     a call over a bound is not sent, answered 429 with Retry-After);
 *  5. paid is decided on the service's record (checkout/fromRecord.ts:
 *     rule 1, as checkout/paid.ts), then claimed (./emittedCheckouts.ts)
 *     and emitted; the answer `{started: true}` is sent by n8n only once it
 *     stored the execution (./answer.ts send: released on a 5xx, so the
 *     receiver's retry or the buyer's next poll starts it).
 * Not Paid items are not emitted here (the buyer's requests see those).
 */

export interface Forward {
	onusReference: string;
	merchantReference: string;
}

/** What the page answers a forward with (JSON): started or not, and why not. */
export interface NotifyAnswer {
	started: boolean;
	reason?: string;
	merchantCheckoutReference?: string;
}

const ONUS_REFERENCE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

/** The forward's two references (pure), or what is wrong with it. */
export function readForward(body: unknown): Forward | { refused: string } {
	let value = body;
	if (typeof value === 'string' || Buffer.isBuffer(value)) {
		const text = value.toString();
		if (text.length > 16 * 1024) return { refused: 'body too large' };
		try {
			value = JSON.parse(text);
		} catch {
			return { refused: 'body is not JSON' };
		}
	}
	const o = (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as IDataObject;
	const { onusReference, merchantReference } = o;
	if (typeof onusReference !== 'string' || !ONUS_REFERENCE.test(onusReference))
		return { refused: 'onusReference: the payin\'s onusReference (a string of letters, digits and "-") is required' };
	if (typeof merchantReference !== 'string' || merchantReference.length === 0 || merchantReference.length > 100)
		return { refused: "merchantReference: the payin's merchantReference (a string of at most 100 characters) is required" };
	return { onusReference, merchantReference };
}

/** One forward, step by step (above); the page's claims and door are serve.ts's. */
export async function serveNotify(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const res = ctx.getResponseObject() as PageResponse;
	const forward = readForward(ctx.getBodyData() ?? (ctx.getRequestObject() as { rawBody?: Buffer }).rawBody);
	if ('refused' in forward) return json(res, 400, { started: false, reason: forward.refused });
	const attempt = boundAttemptOf(forward.merchantReference);
	let claims: CheckoutClaims | undefined;
	let door: BoundedDoor | undefined;
	try {
		const page = await setUpPage(ctx);
		if (!attempt || !isThisPagesCheckout(attempt.id, page.key)) return json(res, 200, { started: false, reason: 'not-this-page' });
		const ref = checkoutReference(attempt);
		claims = claimsOf(ctx);
		if (claims.seen(ref)) return json(res, 200, { started: false, reason: 'already-started', merchantCheckoutReference: ref });
		door = doorOf(ctx, page);
		const record = await getPayin({ client: door.client(page.client) }, page.config.businessId, forward.onusReference);
		if (!record) return json(res, 200, { started: false, reason: 'no-such-payin', merchantCheckoutReference: ref });
		const decision = paidFromRecord(record, attempt, page.config, clock.now());
		if (!decision.paid) {
			if (decision.warning) ctx.logger.warn(decision.warning);
			return json(res, 200, { started: false, reason: decision.reason, merchantCheckoutReference: ref });
		}
		const outputs = new PageOutputs();
		if (!emitting(outputs, claims, false).emit(decision.item, decision.checkoutRef))
			return json(res, 200, { started: false, reason: 'already-started', merchantCheckoutReference: ref });
		const taken = claims;
		return send(res, '', { kind: 'paid', body: { started: true, merchantCheckoutReference: ref } }, outputs, () => taken.release());
	} catch (error) {
		const closed = door?.closed ?? (error instanceof DoorClosed ? error : undefined);
		if (closed) {
			res.set({ 'Retry-After': String(closed.retryAfterSeconds) });
			return json(res, 429, { started: false, reason: `bound reached (${closed.kind}): try again in ${closed.retryAfterSeconds} s` });
		}
		if (error instanceof PageSetupError) {
			ctx.logger.error(`PayOnUs Payment Page "${ctx.getNode().name}" is not usable: ${error.message}`);
			return json(res, 503, { started: false, reason: 'page not set up' });
		}
		const status = statusOf(error);
		ctx.logger.warn(`PayOnUs Payment Page "${ctx.getNode().name}" (notification of ${forward.onusReference}): ${(error as Error).message}`);
		return json(res, 502, { started: false, reason: `PayOnUs could not be read${status ? ` (${status})` : ''}` });
	}
}

function json(res: PageResponse, status: number, body: NotifyAnswer): IWebhookResponseData {
	res.status(status).set({ 'Cache-Control': NO_STORE, 'X-Content-Type-Options': 'nosniff' }).json(body);
	return { noWebhookResponse: true };
}
