import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../../shared/clientInterface';
import type { Attempt, CheckoutState, Method } from './sealedState';

/** The shapes the checkout (this folder, its entry index.ts) and the page (../render/) share. */

export type AskMode = 'no' | 'optional' | 'required';

export interface PageConfig {
	title: string;
	description: string;
	businessId: string;
	currency: string;
	amountMode: 'fixed' | 'customer';
	amount: number;
	minAmount: number;
	maxAmount: number;
	/** Methods the builder chose AND this business/currency can take. */
	methods: Method[];
	askName: AskMode;
	askPhone: AskMode;
	onSuccess: 'message' | 'redirect';
	successMessage: string;
	redirectUrl: string;
	expiryMinutes: number;
	narration: string;
	/*
	 * What a method offered adds (its `offer`, ../methods/): absent when it
	 * is not offered. A method that needs data of its own adds its field here.
	 */
	/** Card: PEM (SPKI) RSA public key for card data. */
	cardPublicKey?: string;
	/** Card: length of an RSA ciphertext under that key (its modulus in bytes). */
	cardCipherBytes?: number;
	/** Mobile money: the networks of the currency (code, name, otpRequired). */
	networks?: Array<{
		code: string;
		name: string;
		otpRequired?: boolean;
		initiatingCodeRequired?: boolean;
	}>;
	/** EFT: the banks (code, name). */
	eftBanks?: Array<{ code: string; name: string }>;
}

/** What every step of a checkout works with. */
export interface CheckoutEnv {
	/** The page's calls to PayOnUs (../service.ts) go through this client. */
	client: PayOnUsClient;
	config: PageConfig;
	now(): number;
	/** Absolute URL of the page (production or test), for return addresses. */
	pageUrl: string;
	/** Seals a state for the page (./sealedState.ts). */
	seal(state: CheckoutState): string;
	/** Sandbox payments (the page says TEST MODE): the "simulate the customer paying" step is allowed. */
	testMode?: boolean;
	/**
	 * Starts the workflow for a confirmed payment unless this checkout was
	 * already emitted. Returns true when this call emitted it.
	 */
	emit(item: IDataObject, checkoutRef: string): boolean;
	/**
	 * Optional "Not Paid" output: a failed attempt or an expired checkout,
	 * once per `key`. Absent when the option is off.
	 */
	emitNotPaid?(item: IDataObject, key: string): boolean;
	warn(message: string): void;
}

/** The page's own views; each method adds its views by name (its `views`, ../methods/). */
export type PageViewKind = 'start' | 'details' | 'processing' | 'paid' | 'expired' | 'closed';
export type ViewKind = PageViewKind | (string & Record<never, never>);

export interface View {
	kind: ViewKind;
	state: CheckoutState;
	/** The state sealed for the page's links and forms. */
	sealed: string;
	/** Message for the customer (error or notice). */
	message?: string;
	/** The message is a notice (the page changed: ./terms.ts), not an error. */
	notice?: boolean;
	/** The attempt the view is about. */
	attempt?: Attempt;
	/** Customer-facing record values (amount, bank...). */
	record?: IDataObject;
	/** Where to send the browser (303) instead of rendering. */
	redirect?: string;
	/** Form values to show again after an input error. */
	values?: Record<string, string>;
	/** Input errors by form field (each shown at its field). */
	fieldErrors?: Record<string, string>;
	/** HTTP status of the page (200 unless the input was refused). */
	status?: number;
}

/** Status summary for the page's own polling (GET ?c=..&poll=1). */
export interface PollAnswer {
	state: 'paid' | 'pending' | 'failed' | 'expired' | 'open' | 'changed';
	message?: string;
	/** Refused by a bound (429): seconds until the page may check again. */
	retryAfter?: number;
}

/** An attempt with its payin as last read (record undefined: PayOnUs has none). */
export interface Latest {
	attempt: Attempt;
	record?: IDataObject;
}
