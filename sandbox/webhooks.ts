/**
 * Webhook delivery: JSON bodies sent with `Content-Type: text/plain` to the
 * configured URL (or the transaction's notificationUrl), with a `hash` header.
 * Nothing is sent until both the URL and the verification key are set.
 * Knobs: duplicates (each event delivered N times), delayMs, outOfOrder
 * (deliveries are held and sent newest first).
 */
import { createHash } from 'node:crypto';
import { Agent, request } from 'undici';
import type { Delivery } from './records';
import type { SandboxState } from './store';

export type WebhookEvent = 'COLLECTION' | 'PAYOUT' | 'REFUND' | 'card_tokenization_link.completed';

export function signature(parts: string[], key: string): string {
	return createHash('sha256').update(parts.join('') + key).digest('hex');
}

/** What the dispatcher needs of the running sandbox (runtime.ts): its state and its cancellable timers. */
export interface DispatcherHost {
	readonly state: SandboxState;
	later(ms: number, fn: () => void): void;
}

export class WebhookDispatcher {
	private agent = new Agent({ keepAliveTimeout: 1000, connections: 16 });
	private held: Array<() => void> = [];
	private generation = 0;
	private sending = new Set<Promise<void>>();

	constructor(private readonly sb: DispatcherHost) {}

	/**
	 * Queues an event. `signed` are the fields hashed before the key
	 * (accountNumber, onusReference, paymentStatus). `once` disables the
	 * duplicates knob (tokenization events are sent once).
	 */
	emit(event: WebhookEvent, body: Record<string, unknown>, signed: string[], notificationUrl?: string | null, once = false): void {
		const settings = this.sb.state.webhooks;
		if (!settings.url || !settings.verificationKey) return;
		const url = notificationUrl || settings.url;
		const headers: Record<string, string> = {
			'content-type': 'text/plain',
			hash: signature(signed, settings.verificationKey),
			'user-agent': 'PayOnUs-Sandbox-Webhook/1.0',
		};
		const copies = once ? 1 : Math.max(1, Math.floor(settings.duplicates || 1));
		for (let copy = 1; copy <= copies; copy++) {
			const delivery: Delivery = {
				id: ++this.sb.state.deliverySeq,
				event,
				url,
				headers,
				body,
				status: null,
				error: null,
				copy,
				sentAt: null,
				queuedAt: this.sb.state.now(),
			};
			this.sb.state.deliveries.push(delivery);
			this.schedule(() => this.track(this.deliver(delivery)));
		}
	}

	private schedule(send: () => void): void {
		const { delayMs, outOfOrder } = this.sb.state.webhooks;
		if (!outOfOrder) {
			this.sb.later(delayMs, send);
			return;
		}
		this.held.push(send);
		if (this.held.length >= 2) {
			this.flush(delayMs);
		} else {
			const gen = this.generation;
			this.sb.later(delayMs + 100, () => {
				if (gen === this.generation) this.flush(0);
			});
		}
	}

	/** Deliveries sent and not yet answered (Sandbox.idle waits for them). */
	inFlight(): Array<Promise<void>> {
		return [...this.sending];
	}

	private track(sending: Promise<void>): void {
		this.sending.add(sending);
		void sending.finally(() => this.sending.delete(sending));
	}

	private flush(delayMs: number): void {
		const batch = this.held.splice(0).reverse();
		this.generation++;
		this.sb.later(delayMs, () => batch.forEach((f) => f()));
	}

	private async deliver(d: Delivery): Promise<void> {
		d.sentAt = this.sb.state.now();
		try {
			const res = await request(d.url, {
				method: 'POST',
				headers: d.headers,
				body: JSON.stringify(d.body),
				dispatcher: this.agent,
				headersTimeout: 5000,
				bodyTimeout: 5000,
			});
			d.status = res.statusCode;
			await res.body.dump();
		} catch (error) {
			d.error = error instanceof Error ? error.message : String(error);
		}
	}

	reset(): void {
		this.held = [];
		this.generation++;
	}

	async close(): Promise<void> {
		await this.agent.destroy().catch(() => undefined);
	}
}
