import { randomBytes } from 'crypto';
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { Checkout } from './checkout';
import { open, seal } from './checkout/sealedState';
import { newPageCheckoutId } from './checkout/pageBound';
import type { CheckoutEnv } from './checkout/types';
import { renderView, type RenderOptions } from './render/html';
import { afterPost, noticeAnswer, notices, pollAnswer, send, viewAnswer, type Answer, type PageResponse } from './request/answer';
import { BoundedDoor, DOOR_BUCKETS, DoorClosed, visitorOf } from './request/bounds';
import { PageSetupError } from './request/config';
import { clock } from './clock';
import { claimsFor, type CheckoutClaims } from './request/emittedCheckouts';
import { formOf } from './request/http';
import { emitting, PageOutputs } from './request/outputs';
import { routeOf, type PageRequest, type Route } from './request/route';
import { pageIdOf, setUpPage, type PageSetup } from './request/setup';

/**
 * One request of the Payment Page, step by step:
 *  1. set the page up (request/setup.ts): credential, parameters, what it can offer;
 *  2. route the request (request/route.ts): a fresh checkout, show, poll or a step;
 *  3. open the checkout's sealed state (checkout/sealedState.ts);
 *  4. run what the buyer asked (checkout/index.ts), which re-reads the payins
 *     and decides paid (checkout/paid.ts: Get Payment says SUCCESSFUL with
 *     the checkout's amount, currency, business and reference);
 *  5. claim once, emit (request/emittedCheckouts.ts, request/outputs.ts);
 *  6. answer (request/answer.ts).
 * Every call the steps make to PayOnUs goes through the page's client
 * bounded at this request's door (rule 4, request/bounds.ts: per visitor,
 * page and phone/e-mail per minute); a call over a bound is not sent, and
 * the request is answered 429 with Retry-After (`tooMany`).
 * Nothing is kept in process memory but caches and the emitted-checkout
 * memory, so any n8n process (regular, queue-mode main or webhook
 * processor) can serve any request of any checkout: PayOnUs holds the
 * payins (reference `PP-<checkout id>-<attempt>`), the page the rest of a
 * checkout, sealed.
 */
export async function servePage(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const nonce = randomBytes(16).toString('base64');
	const outputs = new PageOutputs();
	let claims: CheckoutClaims | undefined;
	// Every POST is answered with a redirect, errors included (request/answer.ts afterPost).
	const post = ctx.getRequestObject().method === 'POST';
	const answer = (a: Answer) =>
		send(ctx.getResponseObject() as PageResponse, nonce, post ? afterPost(a, route) : a, outputs, () => claims?.release());
	let rendering: RenderOptions = {
		nonce,
		config: { title: String(ctx.getNodeParameter('title', 'Payment')), description: '' } as RenderOptions['config'],
	};
	let route: Route | undefined;
	let door: BoundedDoor | undefined;
	try {
		// Routed first: a POST the page cannot serve is redirected back to its checkout (request/answer.ts afterPost).
		route = routeOf(readRequest(ctx));
		const page = await setUpPage(ctx);
		rendering = { nonce, config: page.config, testMode: page.testMode, now: clock.now() };
		claims = claimsOf(ctx);
		door = doorOf(ctx, page);
		const checkout = new Checkout(checkoutEnv(ctx, page, door, emitting(outputs, claims, page.notPaidOutput)));
		return answer(await run(route, checkout, page.key, outputs, rendering));
	} catch (error) {
		const closed = door?.closed ?? (error instanceof DoorClosed ? error : undefined);
		if (closed && outputs.paid === undefined) return answer(notices.tooMany(rendering, closed, route, clock.now()));
		if (error instanceof PageSetupError) {
			ctx.logger.error(`PayOnUs Payment Page "${ctx.getNode().name}" is not usable: ${error.message}`);
			return answer(notices.notSetUp(rendering));
		}
		if (outputs.paid) return answer(notices.received(rendering));
		ctx.logger.warn(`PayOnUs Payment Page "${ctx.getNode().name}": ${(error as Error).message}`);
		return answer(notices.unreachable(rendering));
	}
}

/** Steps 3 and 4: the sealed state opened, then what the route asks of the checkout. */
async function run(route: Route, checkout: Checkout, key: Buffer, outputs: PageOutputs, o: RenderOptions): Promise<Answer> {
	if (route.kind === 'start') return { kind: 'page', status: 200, html: renderView(o, checkout.fresh(newPageCheckoutId(key))) };
	if (route.kind === 'expired') return notices.expired(o);
	if (route.kind === 'notice') return noticeAnswer(route.notice, o) ?? notices.invalidLink(o);
	const state = open(route.sealed, key);
	if (!state) return notices.invalidLink(o);
	if (route.kind === 'poll') return pollAnswer(await checkout.poll(state), outputs.paid !== undefined);
	if (route.kind === 'show') return viewAnswer(await checkout.show(state, route.notice), { post: false }, outputs.paid !== undefined, o);
	const view = await checkout.step(state, route.step, route.form);
	return viewAnswer(view, { post: true, step: route.step }, outputs.paid !== undefined, o);
}

function readRequest(ctx: IWebhookFunctions): PageRequest {
	const req = ctx.getRequestObject();
	const post = req.method === 'POST';
	const form = post ? formOf(ctx.getBodyData(), (req as typeof req & { rawBody?: Buffer }).rawBody) : {};
	return { method: req.method, query: ctx.getQueryData() as IDataObject, form };
}

/** The emitted-checkout claims of this node; the test URL (manual mode) keeps nothing in static data. */
export function claimsOf(ctx: IWebhookFunctions): CheckoutClaims {
	const mode = ctx.getMode();
	const staticData = mode !== 'manual' ? ctx.getWorkflowStaticData('node') : undefined;
	const scope = { workflowId: String(ctx.getWorkflow().id ?? ''), nodeId: ctx.getNode().id, mode };
	return claimsFor(scope, staticData, (message) => ctx.logger.warn(message));
}

/** Rule 4: this request's door (request/bounds.ts): this page (workflow, node), the visitor's address as n8n gives it. */
export function doorOf(ctx: IWebhookFunctions, page: PageSetup): BoundedDoor {
	return new BoundedDoor(DOOR_BUCKETS, { page: pageIdOf(ctx), visitor: visitorOf(ctx.getRequestObject().ip), limits: page.limits });
}

function checkoutEnv(ctx: IWebhookFunctions, page: PageSetup, door: BoundedDoor, emit: ReturnType<typeof emitting>): CheckoutEnv {
	const req = ctx.getRequestObject();
	return {
		client: door.client(page.client),
		config: page.config,
		now: () => clock.now(),
		// Return address after 3-D Secure / EFT: the production URL, or in
		// test mode the address this request came in on.
		pageUrl:
			ctx.getMode() !== 'manual'
				? (ctx.getNodeWebhookUrl('default') ?? '')
				: `${req.protocol}://${String(req.headers.host ?? '')}${req.baseUrl ?? ''}${req.path}`,
		seal: (state) => seal(state, page.key),
		testMode: page.testMode,
		...emit,
		warn: (message) => ctx.logger.warn(message),
	};
}
