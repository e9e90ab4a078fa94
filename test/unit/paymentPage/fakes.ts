/**
 * What the Payment Page's unit tests share: a fake PayOnUs for payins
 * (reference uniqueness with a 409 carrying the existing record, Get
 * Payment, the list by reference, the customer steps), a page
 * configuration, a card encrypted as the page's script does, and a
 * checkout wired to them.
 */
import { constants, generateKeyPairSync, publicEncrypt } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient, RequestOptions } from '../../../nodes/shared/clientInterface';
import { Checkout, type CheckoutEnv, type PageConfig } from '../../../nodes/PayOnUsPaymentPage/checkout';
import { deriveKey, seal, type CheckoutState } from '../../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { STEP_KIT } from '../../../nodes/PayOnUsPaymentPage/checkout/kit';
import type { Latest, View } from '../../../nodes/PayOnUsPaymentPage/checkout/types';
import type { PageMethod } from '../../../nodes/PayOnUsPaymentPage/methods';
import { httpError } from '../fakes';

export const KEY = deriveKey('secret-1', 'wf|node');

export class FakePayOnUs implements PayOnUsClient {
	readonly environment = 'custom' as const;
	readonly defaults = { businessId: 'BUS-1' };
	payins = new Map<string, IDataObject>();
	byRef = new Map<string, string>();
	calls: string[] = [];
	seq = 0;
	/** The next GETs that fail with a 500. */
	failGets = 0;
	/** What a card charge asks next (PIN, OTP, THREE_DS; undefined: nothing). */
	cardAuth: string | undefined;

	async request<T>(opts: RequestOptions): Promise<T> {
		this.calls.push(`${opts.method} ${opts.path}`);
		const body = (opts.body ?? {}) as IDataObject;
		if (opts.method === 'GET' && this.failGets > 0) {
			this.failGets--;
			throw httpError(500, 'PayOnUs failed to process the payment (server error 500)');
		}
		if (opts.method === 'GET') return this.read(opts) as T;
		if (opts.path === '/api/v1/card-payments/complete-payment') return this.completeCard(body) as T;
		if (opts.path === '/api/v1/mobile-money/verify-otp') {
			if (body.otp === '0000') throw httpError(400, 'wrong otp');
			return {} as T;
		}
		if (opts.path === '/api/v1/fund-ngn-account') {
			// The sandbox's simulate endpoint: the dynamic account paid.
			const p = this.payins.get(String(body.onusReference));
			if (!p) throw httpError(404, 'not found');
			Object.assign(p, { paymentStatus: body.paymentStatus, amountPaid: body.amount });
			return null as T;
		}
		return this.create(opts.path, body) as T;
	}

	async paginate<T>(): Promise<T[]> {
		return [];
	}

	/** The payin `ONUS-<TYPE>-<n>` paid in full (or as `over` says). */
	pay(n: number, over: IDataObject = {}): IDataObject {
		const p = [...this.payins.values()].find((r) => String(r.onusReference).endsWith(`-${n}`))!;
		Object.assign(p, { paymentStatus: 'SUCCESSFUL' }, over);
		if (over.amountPaid === undefined) p.amountPaid = p.amount;
		return p;
	}

	private read(opts: RequestOptions): unknown {
		if (opts.path === '/api/v1/mobile-money/networks') {
			return [
				{ code: 'MTN', name: 'MTN', currency: 'GHS', otpRequired: true },
				{ code: 'VOD', name: 'Vodafone', currency: 'GHS' },
				{ code: 'AT', name: 'AT', currency: 'GHS', initiatingCodeRequired: true },
			];
		}
		if (opts.path === '/api/v1/eft-payment/banks') return [{ code: 'ABSA', name: 'Absa' }, { code: 'FNB', name: 'FNB' }];
		if (opts.path.startsWith('/api/v1/payment-requests/businesses/')) {
			const p = this.payins.get(String(opts.qs?.onusReference));
			if (!p) throw httpError(404, 'not found');
			return { ...p };
		}
		if (opts.path === '/api/v1/payment-requests') {
			const on = this.byRef.get(String(opts.qs?.reference ?? ''));
			return { content: on ? [{ ...this.payins.get(on) }] : [] };
		}
		throw new Error(`unexpected GET ${opts.path}`);
	}

	private completeCard(body: IDataObject): IDataObject {
		const p = this.payins.get(String(body.onusReference))!;
		if (body.authData === '0000') throw httpError(400, 'wrong pin');
		Object.assign(p, { paymentStatus: 'SUCCESSFUL', amountPaid: p.amount });
		return { ...p };
	}

	private create(path: string, body: IDataObject): IDataObject {
		const ref = String(body.reference);
		if (this.byRef.has(ref)) {
			throw httpError(409, 'duplicate', { existingRecord: { ...this.payins.get(this.byRef.get(ref)!) } });
		}
		const channel = channelOf(path);
		// A service reference of the channel's kind (the spec's TYPE codes: NUB, CARD, MMO, EFT).
		const onusReference = `ONUS-${SERVICE_TYPE[channel]}-${++this.seq}`;
		const record: IDataObject = {
			onusReference,
			reference: ref,
			merchantReference: ref,
			businessId: body.businessId,
			amount: body.amount,
			amountPaid: 0,
			currency: body.currency ?? (channel === 'MOBILE_MONEY' ? 'GHS' : channel === 'EFT' ? 'ZAR' : 'NGN'),
			paymentChannel: channel,
			paymentStatus: 'PENDING',
			createdDate: `2026-01-01 12:00:0${this.seq % 10}`,
			// The customer as the service records it (the sandbox's payin records: email, mobileNumber).
			email: (body.customer as IDataObject | undefined)?.email ?? '',
			mobileNumber: (body.customer as IDataObject | undefined)?.phone ?? '',
			...(channel === 'BANK_TRANSFER' ? { accountNumber: '0123456789', bankName: 'Test Bank', accountName: 'Shop / Ada' } : {}),
		};
		this.payins.set(onusReference, record);
		this.byRef.set(ref, onusReference);
		const answer: IDataObject = { ...record };
		if (channel === 'CARD' && this.cardAuth) answer.authTypeRequired = this.cardAuth;
		if (channel === 'CARD' && this.cardAuth === 'THREE_DS') answer.redirectUrl = `https://bank.test/3ds/${onusReference}`;
		if (channel === 'MOBILE_MONEY') answer.otpRequired = body.momoNetwork === 'MTN';
		if (channel === 'EFT') answer.redirectUrl = `https://bank.test/eft/${onusReference}`;
		return answer;
	}
}

const SERVICE_TYPE: Record<string, string> = { BANK_TRANSFER: 'NUB', CARD: 'CARD', MOBILE_MONEY: 'MMO', EFT: 'EFT' };

function channelOf(path: string): string {
	if (path.includes('virtual-accounts')) return 'BANK_TRANSFER';
	if (path.includes('card')) return 'CARD';
	if (path.includes('mobile')) return 'MOBILE_MONEY';
	return 'EFT';
}

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
export const PEM = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString().trim();

/** Card details encrypted as the page's script does (RSA-OAEP, SHA-256), Base64. */
export function encryptedCard(details = '4111111111111111|12|30|123'): string {
	return publicEncrypt({ key: PEM, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(details)).toString('base64');
}

export function pageConfig(over: Partial<PageConfig> = {}): PageConfig {
	return {
		title: 'Ticket',
		description: 'One concert ticket',
		businessId: 'BUS-1',
		currency: 'NGN',
		amountMode: 'fixed',
		amount: 5000,
		minAmount: 0,
		maxAmount: 0,
		methods: ['bank', 'card'],
		askName: 'optional',
		askPhone: 'no',
		onSuccess: 'message',
		successMessage: 'Thanks',
		redirectUrl: '',
		expiryMinutes: 30,
		cardPublicKey: PEM,
		cardCipherBytes: 256,
		narration: 'Ticket',
		networks: [],
		eftBanks: [],
		...over,
	};
}

/** A checkout against a FakePayOnUs, its items collected (each key emitted once), its clock moved by `advance`. */
export function checkoutSetup(over: Partial<PageConfig> = {}) {
	const fake = new FakePayOnUs();
	const emitted: IDataObject[] = [];
	const notPaid: IDataObject[] = [];
	const seen = new Set<string>();
	const warnings: string[] = [];
	let now = Date.UTC(2026, 0, 1, 12);
	const env: CheckoutEnv = {
		client: fake,
		config: pageConfig(over),
		now: () => now,
		pageUrl: 'http://n8n.test/webhook/pay',
		seal: (s) => seal(s, KEY),
		emit: (item, ref) => {
			if (seen.has(ref)) return false;
			seen.add(ref);
			emitted.push(item);
			return true;
		},
		emitNotPaid: (item, key) => {
			if (seen.has(key)) return false;
			seen.add(key);
			notPaid.push(item);
			return true;
		},
		warn: (m: string) => warnings.push(m),
	};
	const checkout = new Checkout(env);
	return { fake, emitted, notPaid, checkout, env, warnings, advance: (ms: number) => (now += ms) };
}

/** A method's step as the checkout runs it (with the checkout's kit): `step` of its forms, or 'start' / 'simulate'. */
export function methodStep(method: PageMethod, step: string) {
	const run = step === 'start' ? method.start : step === 'simulate' ? method.simulate : method.steps[step];
	if (!run) throw new Error(`${method.id} has no step ${step}`);
	return async (env: CheckoutEnv, state: CheckoutState, form: Record<string, string> = {}, latest?: Latest): Promise<View> =>
		await run(env, state, form, latest, STEP_KIT);
}
