import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { MoneyCall } from '../../shared/moneyMoving/call';
import type { PayOnUsClient } from '../../shared/clientInterface';
import type { Attempt, CheckoutState } from '../checkout/sealedState';
import type { CheckoutEnv, Latest, PageConfig, View } from '../checkout/types';
import type { Body, RenderOptions } from '../render/parts';

/**
 * What a payment method of the Payment Page is made of: every part of it,
 * in its own module (./<method>.ts), registered once in ./index.ts. The
 * page's generic files (sealed state, next view, adoption, config, input,
 * properties, views) loop over that list instead of naming methods;
 * test/unit/paymentPage/methods/registered.test.ts fails when a registered method
 * lacks a part.
 */

/**
 * The checkout's moves a method's steps make (lent by ../checkout/kit.ts,
 * so a method imports no file that loops over the methods).
 */
export interface StepKit {
	/** The attempt's payin created once; a 409 adopts the payin that holds its reference (../checkout/adopt.ts). */
	createOnce(env: CheckoutEnv, state: CheckoutState, attempt: Attempt, create: () => Promise<IDataObject>): Promise<{ created: IDataObject } | { adopted: View }>;
	/** The page as it stands, after re-reading the attempts (../checkout/refresh.ts). */
	current(env: CheckoutEnv, state: CheckoutState, message?: string, status?: number): Promise<View>;
	/** The view of a checkout that is not paid (../checkout/nextView.ts). */
	nextView(env: CheckoutEnv, state: CheckoutState, latest: Latest | undefined, message?: string, status?: number): View;
}

/** One POST step of a method (the form's `step`), on a checkout already re-read. */
export type MethodStep = (env: CheckoutEnv, state: CheckoutState, form: Record<string, string>, latest: Latest | undefined, kit: StepKit) => Promise<View>;

/** One view of a method; `others`: the "Pay by ... instead" buttons of the other methods offered. */
export type MethodView = (o: RenderOptions, view: View, others: string) => Body;

/** What a method reads to decide whether this page can offer it. */
export interface OfferContext {
	currency: string;
	/** The node's parameters of this method (its `properties`), as read. */
	parameters: Record<string, unknown>;
	/** The service's lists, read once per key and kept a few minutes (../request/config.ts). */
	cached<T>(key: string, load: () => Promise<T>): Promise<T>;
	/** Created only on a cache miss. */
	getClient(): Promise<PayOnUsClient>;
	/** The process cache's scope (credential). */
	scope: string;
}

export interface PageMethod {
	/** Its value in the node's Payment Methods, the sealed state (Attempt.m) and the Paid item's paymentMethod: public, never renamed. */
	id: string;
	/** Its option in the node's Payment Methods (the options are listed by name). */
	option: { name: string; description: string };
	/** Its name and hint on the page. */
	label: { name: string; hint: string };
	/** Node parameters it needs (shown when it is chosen; read only then, '' otherwise). */
	properties: INodeProperties[];
	/** Why a page cannot offer it (the setup error: "<what> needs <needs>"); `warn`: logged when chosen but not offered. */
	needs: { what: string; needs: string; warn?: boolean };
	/** Whether this page can offer it: what it adds to the page's configuration, or undefined when it cannot. */
	offer(ctx: OfferContext): Promise<Partial<PageConfig> | undefined>;
	/** The payin's paymentChannel as Get Payment reads it back. */
	channel: string;
	/**
	 * The money-moving call of its payin, as the PayOnUs operation declares it
	 * (nodes/PayOnUs/resources/payin/): its path (each a payment attempt the
	 * page's bounds count, ../request/bounds.ts) and what proves a SUCCESSFUL
	 * payin is this method's (rule 1, ../../shared/moneyMoving/proof.ts).
	 */
	call: MoneyCall;
	/** A bank transfer's accountName is the account's, not the buyer's: false. */
	accountNameIsBuyer: boolean;
	/** The payin call its steps make (../../shared/payins, through ../service.ts inPage). */
	payin(caller: { client: PayOnUsClient }, body: never): Promise<IDataObject>;
	/** Created as soon as it is chosen (no form of its own): the step that creates it. */
	start?: MethodStep;
	/** POST steps it answers (`step` of its forms), by name: unique across methods. */
	steps: Record<string, MethodStep>;
	/** TEST MODE: "Simulate the customer paying" its open attempt. */
	simulate?: MethodStep;
	/** Attempt steps (Attempt.s) and the view each shows. */
	stepViews: Record<string, string>;
	/** Its views, by kind: unique across methods. */
	views: Record<string, MethodView>;
	/** Its form on the details view (heading `pay-h`). */
	form(o: RenderOptions, view: View, amount: string): Body;
	/** Fields of its form safe to show again after an error (never card data, PIN or codes). */
	echo: string[];
	/** The attempt a payin found by its reference stands for: the step its customer is on. */
	adopted(payin: IDataObject): Partial<Attempt>;
	/** Why an attempt did not complete, first sentence. */
	notCompleted: string;
}

/** The parts every method must have (the optional ones, `start` and `simulate`, apart): test/unit/paymentPage/methods/registered.test.ts checks each registered method has them. */
export const PAYMENT_METHOD_PARTS = [
	'id',
	'option',
	'label',
	'properties',
	'needs',
	'offer',
	'channel',
	'call',
	'accountNameIsBuyer',
	'payin',
	'steps',
	'stepViews',
	'views',
	'form',
	'echo',
	'adopted',
	'notCompleted',
] as const;

type RequiredPart = { [K in keyof PageMethod]-?: undefined extends PageMethod[K] ? never : K }[keyof PageMethod];
/** Compiles only while PAYMENT_METHOD_PARTS names every required part of PageMethod. */
export const EVERY_PART_LISTED: Exclude<RequiredPart, (typeof PAYMENT_METHOD_PARTS)[number]> extends never ? true : never = true;
