/**
 * The one client of a running sandbox, for tests, scripts and benches: every
 * control endpoint under /_sandbox (areas/control.ts, link.ts), typed, and an
 * authenticated call to the service API as the sandbox's own API client (for
 * test set-up: paying a payin, making a transfer), never the client n8n's
 * credential uses, so it never retires that token.
 *
 *   const sb = new SandboxClient(handle.url);
 *   await sb.reset();
 *   await sb.setWebhooks({ url, verificationKey });
 *   const { transfers } = await sb.ledger();
 *
 * Control answers use the service's envelope; methods return its `data`
 * and throw SandboxControlError on an error status. `send` returns the
 * answer as it came (status, body, headers) for tests of the control API itself.
 */
import { request, type Dispatcher } from 'undici';
import type { SandboxConfig, SeedConfig } from './config';
import type { Fault, FaultSpec } from './faults';
import type { LinkSettings } from './link';
import type { ProfileName } from './profiles';
import type { CardToken, ClientStats, Delivery, FixedAccount, LedgerEntry, Link, Payin, PendingCredit, Refund, RequestLogEntry, Transfer, Wallet, WebhookSettings } from './records';
import type { SubmitResult } from './areas/tokenization';

/** A record as the API shows it: the sandbox-internal `_` fields dropped. */
export type View<T> = { [K in keyof T as K extends `_${string}` ? never : K]: T[K] };

export interface ClockView {
	now: string;
	timestamp: string;
	offsetSeconds: number;
}

export interface LedgerView {
	clock: ClockView;
	wallets: Wallet[];
	entries: LedgerEntry[];
	pendingCredits: PendingCredit[];
	payins: Array<View<Payin>>;
	fixedAccounts: FixedAccount[];
	transfers: Array<View<Transfer>>;
	refunds: Array<View<Refund>>;
	links: Array<Omit<View<Link>, 'businessId' | 'merchantId'> & { attempts: number; lastError: string | null }>;
	tokens: Array<Omit<View<CardToken>, 'deleted' | 'deletedDate'> & { deleted: boolean; deletedDate: string | null }>;
}

/** A webhook delivery; `body` is the event's JSON as sent. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the event JSON as sent, read freely by tests
export type DeliveryView = Omit<Delivery, 'body'> & { body: any };

export interface StatsView {
	clients: Record<string, ClientStats & { hasValidToken: boolean }>;
	unauthorizedWithoutClient: number;
	requestsLogged: number;
}

export interface ProfileView {
	profiles: ProfileName[];
	available: Array<{ name: ProfileName; description: string }>;
}

export interface CardInput {
	cardNumber?: string;
	expiry?: string;
	cvv?: string;
	consent?: boolean;
}

/** Settlement outcomes of held transfers and refunds: SUCCESSFUL, FAILED, or a failure reason of the test account table. */
export type SettleOutcome = string;

export interface RawAnswer<T = unknown> {
	status: number;
	/** The parsed JSON answer (the envelope), or the text when it is not JSON. */
	body: T;
	headers: Record<string, string | string[] | undefined>;
}

interface Envelope<T> {
	status?: number;
	message?: string;
	data: T;
}

/** A control or set-up call the sandbox refused: method, path, status and the service's message (never a secret). */
export class SandboxControlError extends Error {
	constructor(
		readonly method: string,
		readonly path: string,
		readonly status: number,
		readonly serviceMessage: string,
	) {
		super(`sandbox ${method} ${path}: ${status} ${serviceMessage}`.trim());
		this.name = 'SandboxControlError';
	}
}

/** The message and error list of an error envelope, for error texts. */
function messageOf(body: unknown): string {
	if (!body || typeof body !== 'object') return typeof body === 'string' ? body.slice(0, 300) : '';
	const e = body as { message?: unknown; data?: { errors?: unknown } };
	const errors = Array.isArray(e.data?.errors) ? ` (${(e.data!.errors as unknown[]).join('; ')})` : '';
	return `${typeof e.message === 'string' ? e.message : ''}${errors}`;
}

/**
 * One HTTP call to a sandbox, answered as it came: status, headers, and the
 * body parsed as JSON when it is JSON (the text otherwise). The one place
 * that reads sandbox answers (the client below, the sandbox tests' raw calls).
 */
export async function sandboxRequest(
	url: string,
	init: { method: string; headers?: Record<string, string>; body?: string | Buffer; dispatcher?: Dispatcher },
): Promise<RawAnswer> {
	const res = await request(url, { method: init.method as Dispatcher.HttpMethod, headers: init.headers, body: init.body, dispatcher: init.dispatcher });
	const text = await res.body.text();
	let parsed: unknown = text;
	try {
		parsed = JSON.parse(text);
	} catch {
		/* not JSON (an HTML page, an empty answer): the text */
	}
	return { status: res.statusCode, body: parsed, headers: res.headers };
}

export interface SandboxClientOptions {
	/** The API client of `api()` calls (default sandbox-client-3, which no test credential uses). */
	apiClientId?: string;
	apiClientSecret?: string;
	/** An undici dispatcher (e.g. an Agent trusting the sandbox's TLS CA). */
	dispatcher?: Dispatcher;
}

export class SandboxClient {
	private token = '';
	/** The token call in flight: concurrent first calls share it (the service allows few token calls a minute). */
	private tokenCall?: Promise<void>;
	private readonly apiClientId: string;
	private readonly apiClientSecret: string;
	private readonly dispatcher?: Dispatcher;

	constructor(
		readonly url: string,
		options: SandboxClientOptions = {},
	) {
		this.apiClientId = options.apiClientId ?? 'sandbox-client-3';
		this.apiClientSecret = options.apiClientSecret ?? this.apiClientId.replace('client', 'secret');
		this.dispatcher = options.dispatcher;
	}

	// ---------- transport ----------

	private async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<RawAnswer> {
		return await sandboxRequest(`${this.url}${path}`, {
			method,
			headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
			body: body === undefined ? undefined : JSON.stringify(body),
			dispatcher: this.dispatcher,
		});
	}

	/** A control call as answered (no throw on an error status): `path` is under /_sandbox. */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of the control API are read freely by tests and benches
	async send<T = any>(method: string, path: string, body?: unknown): Promise<RawAnswer<T>> {
		return (await this.call(method, `/_sandbox${path}`, body)) as RawAnswer<T>;
	}

	/** A control call: the envelope's `data`; throws SandboxControlError on an error status. */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of the control API are read freely by tests and benches
	async control<T = any>(method: string, path: string, body?: unknown): Promise<T> {
		const answer = await this.send<Envelope<T>>(method, path, body);
		if (answer.status >= 400) throw new SandboxControlError(method, `/_sandbox${path}`, answer.status, messageOf(answer.body));
		return answer.body?.data as T;
	}

	/**
	 * An authenticated call to the service API as this client's own API client
	 * (test set-up only). The token is kept and taken again once when the
	 * sandbox answers 401 (after a reset or a clock jump retired it).
	 */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of the control API are read freely by tests and benches
	async api<T = any>(method: string, path: string, body?: unknown, query?: Record<string, string>): Promise<T> {
		const target = query ? `${path}?${new URLSearchParams(query).toString()}` : path;
		if (!this.token) await this.login();
		const used = this.token;
		let answer = await this.call(method, target, body, { authorization: `Bearer ${used}` });
		if (answer.status === 401) {
			if (this.token === used) this.token = '';
			await this.login();
			answer = await this.call(method, target, body, { authorization: `Bearer ${this.token}` });
		}
		if (answer.status >= 400) throw new SandboxControlError(method, path, answer.status, messageOf(answer.body));
		return (answer.body as Envelope<T>).data;
	}

	private async login(): Promise<void> {
		if (this.token) return;
		this.tokenCall ??= this.takeToken().finally(() => (this.tokenCall = undefined));
		await this.tokenCall;
	}

	private async takeToken(): Promise<void> {
		const answer = await this.call('POST', '/api/v1/access-token', { apiClientId: this.apiClientId, apiClientSecret: this.apiClientSecret });
		const token = (answer.body as Envelope<{ access_token?: string }> | undefined)?.data?.access_token;
		if (answer.status !== 200 || !token) throw new SandboxControlError('POST', '/api/v1/access-token', answer.status, messageOf(answer.body));
		this.token = token;
	}

	// ---------- state ----------

	/** Back to the seed (or `seed`): records, logs, clock, webhooks and faults; profiles stay. Retires every access token. */
	async reset(seed?: SeedConfig): Promise<void> {
		await this.control('POST', '/reset', seed === undefined ? undefined : { seed });
		this.token = '';
	}

	async config(): Promise<SandboxConfig> {
		return await this.control<SandboxConfig>('GET', '/config');
	}

	async setConfig(config: Partial<SandboxConfig>): Promise<SandboxConfig> {
		return await this.control<SandboxConfig>('PUT', '/config', config);
	}

	async configDefaults(): Promise<SandboxConfig> {
		return await this.control<SandboxConfig>('GET', '/config/defaults');
	}

	async profiles(): Promise<ProfileView> {
		return await this.control<ProfileView>('GET', '/profile');
	}

	async setProfiles(profiles: readonly string[]): Promise<ProfileView> {
		return await this.control<ProfileView>('POST', '/profile', { profiles });
	}

	// ---------- webhooks ----------

	async webhooks(): Promise<WebhookSettings> {
		return await this.control<WebhookSettings>('GET', '/webhooks');
	}

	/** Sets the webhook URL and key; the other knobs go back to one prompt, in-order copy unless given. */
	async setWebhooks(settings: Partial<WebhookSettings>): Promise<WebhookSettings> {
		return await this.control<WebhookSettings>('PUT', '/webhooks', { duplicates: 1, delayMs: 0, outOfOrder: false, ...settings });
	}

	async deliveries(): Promise<DeliveryView[]> {
		return await this.control<DeliveryView[]>('GET', '/deliveries');
	}

	async clearDeliveries(): Promise<void> {
		await this.control('DELETE', '/deliveries');
	}

	// ---------- clock ----------

	async clock(): Promise<ClockView> {
		return await this.control<ClockView>('GET', '/clock');
	}

	async advanceClock(seconds: number): Promise<ClockView> {
		return await this.control<ClockView>('POST', '/clock/advance', { seconds });
	}

	/** Moves the clock to `at` (only forwards). */
	async setClock(at: Date | string): Promise<ClockView> {
		return await this.control<ClockView>('POST', '/clock/set', { at: at instanceof Date ? at.toISOString() : at });
	}

	// ---------- faults ----------

	async faults(): Promise<Array<Omit<Fault, 'regex' | 'rngState'>>> {
		return await this.control('GET', '/faults');
	}

	async addFault(spec: FaultSpec): Promise<Omit<Fault, 'regex' | 'rngState'>> {
		return await this.control('POST', '/faults', spec);
	}

	async clearFaults(): Promise<void> {
		await this.control('DELETE', '/faults');
	}

	// ---------- the customer's and the bank's steps ----------

	async approvePayin(onusReference: string): Promise<View<Payin>> {
		return await this.control('POST', `/payins/${encodeURIComponent(onusReference)}/approve`);
	}

	async declinePayin(onusReference: string): Promise<View<Payin>> {
		return await this.control('POST', `/payins/${encodeURIComponent(onusReference)}/decline`);
	}

	/** Settles a held (PENDING) transfer. */
	async settleTransfer(onusReference: string, outcome: SettleOutcome = 'SUCCESSFUL'): Promise<View<Transfer>> {
		return await this.control('POST', `/transfers/${encodeURIComponent(onusReference)}/settle`, { outcome });
	}

	/** Settles a held (PENDING) refund. */
	async settleRefund(onusReference: string, outcome: SettleOutcome = 'SUCCESSFUL'): Promise<View<Refund>> {
		return await this.control('POST', `/refunds/${encodeURIComponent(onusReference)}/settle`, { outcome });
	}

	/** The customer submits a card on a tokenization link (default: the always-accepted test card, consent given). */
	async submitLink(linkId: string, card: CardInput = { cardNumber: '4111111111111111', expiry: '12/30', cvv: '123' }): Promise<SubmitResult & { link: Record<string, unknown> }> {
		return await this.control('POST', `/links/${encodeURIComponent(linkId)}/submit`, card);
	}

	async expireLink(linkId: string): Promise<Record<string, unknown>> {
		return await this.control('POST', `/links/${encodeURIComponent(linkId)}/expire`);
	}

	async expireCardToken(cardTokenId: string): Promise<Record<string, unknown>> {
		return await this.control('POST', `/tokens/${encodeURIComponent(cardTokenId)}/expire`);
	}

	/** Expires the current access token of an API client (the next call with it answers 401). */
	async expireAccessToken(clientId: string): Promise<{ clientId: string; expired: boolean }> {
		return await this.control('POST', `/access-tokens/${encodeURIComponent(clientId)}/expire`);
	}

	/**
	 * Refuses the tokens of an API client on use (401), though the token call
	 * still issues them: `every` one from now on (an API client switched off,
	 * or another installation taking a token after each), the `next` one
	 * only, or `none` again.
	 */
	async refuseAccessTokens(clientId: string, refuse: 'every' | 'next' | 'none'): Promise<{ clientId: string; refuse: string }> {
		return await this.control('PUT', `/access-tokens/${encodeURIComponent(clientId)}/refusal`, { refuse });
	}

	// ---------- what happened ----------

	async ledger(): Promise<LedgerView> {
		return await this.control<LedgerView>('GET', '/ledger');
	}

	/**
	 * The request log, oldest first, filtered by path prefix and method.
	 * Token calls (POST /api/v1/access-token) are left out unless `tokenCalls`.
	 */
	async requests(filter: { path?: string; method?: string; tokenCalls?: boolean } = {}): Promise<RequestLogEntry[]> {
		const query = new URLSearchParams();
		if (filter.path) query.set('path', filter.path);
		if (filter.method) query.set('method', filter.method);
		const qs = query.size > 0 ? `?${query.toString()}` : '';
		const all = await this.control<RequestLogEntry[]>('GET', `/requests${qs}`);
		return filter.tokenCalls ? all : all.filter((r) => r.path !== '/api/v1/access-token');
	}

	async clearRequests(): Promise<void> {
		await this.control('DELETE', '/requests');
	}

	async stats(): Promise<StatsView> {
		return await this.control<StatsView>('GET', '/stats');
	}

	/** The sandbox's RSA public key for encrypting cardData. */
	async publicKey(): Promise<string> {
		return (await this.control<{ publicKey: string }>('GET', '/public-key')).publicKey;
	}

	/** The delaying link's settings and the TCP connections opened through it so far (null when the sandbox runs without one). */
	async link(): Promise<(LinkSettings & { connectionsOpened: number }) | null> {
		return await this.control<(LinkSettings & { connectionsOpened: number }) | null>('GET', '/link');
	}

	async setLink(settings: Partial<LinkSettings>): Promise<LinkSettings> {
		return await this.control<LinkSettings>('PUT', '/link', settings);
	}
}
