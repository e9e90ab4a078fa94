import type { IWebhookFunctions } from 'n8n-workflow';
import { BoundedMap } from './boundedMap';
import { readCredential, type PayOnUsCredential } from './credential/read';
import { reusable } from './transport';

/**
 * A webhook node's credential (PayOnUs Trigger, Payment Page): one read per incoming request, handed to every
 * step that needs it (authenticate.ts: the Webhook Verification Key;
 * receive.ts: the confirmation's client), and one process memory of the
 * latest read of each credential that a request may take instead of reading.
 *
 * Why a memory at all: in a webhook request n8n reads a credential from the
 * database, decrypts it and, on n8n 2.41 (not 2.8), resolves it in an
 * expression isolate of its own (about 50 ms of CPU on a 2-core machine, in
 * the process that answers the webhooks). Taking a recent read instead of
 * one per confirmed event moved the trigger ÷ Webhook node accept latency
 * (p50) from 1.30 to 0.76 in regular mode and from 5.76 to 4.67 in queue mode
 * (docs/performance.md, `npm run bench -- webhook-drills`).
 *
 * When a request reads anyway, so that the memory never hides a change:
 * - no read younger than REUSE_MS is remembered (the first request of a burst);
 * - the signature does not verify with the remembered key (a forged request,
 *   or a key just changed: a new key takes effect at once; the old one is
 *   accepted at most REUSE_MS after the change, until the new one is read);
 * - the remembered read cannot stand in for a fresh one for the service's
 *   client (transport `reusable`: its token would be blanked or replaced, so
 *   a fresh read may find the token another process stored).
 * Each read renews the memory. Kept in this process's memory only, never
 * logged or output.
 */

/** How long a read is taken instead of reading again. */
export const REUSE_MS = 10_000;
/** Bound on the number of credentials remembered. */
const MAX_CREDENTIALS = 100;

/** The latest read of each credential: at most MAX_CREDENTIALS, the oldest read let go first. */
export class CredentialMemory {
	private readonly reads = new BoundedMap<string, { credential: PayOnUsCredential; readAt: number }>(MAX_CREDENTIALS);

	/** Remembers a read as the newest (nothing read, undefined, forgets the earlier one). Without a credential id nothing is remembered. */
	remember(credentialId: string | undefined, credential: PayOnUsCredential | undefined, now: number): void {
		if (credentialId === undefined) return;
		this.reads.delete(credentialId);
		if (credential !== undefined) this.reads.set(credentialId, { credential, readAt: now });
	}

	/** The read of this credential made less than REUSE_MS ago, if any. */
	recent(credentialId: string | undefined, now: number): PayOnUsCredential | undefined {
		if (credentialId === undefined) return undefined;
		const read = this.reads.get(credentialId);
		return read !== undefined && now - read.readAt < REUSE_MS ? read.credential : undefined;
	}
}

/** One per process, shared by every PayOnUs Trigger. */
export const credentialMemory = new CredentialMemory();

/** What a request's read is: the credential (undefined: the node has none) and whether it was read during this request. */
export interface Read {
	credential: PayOnUsCredential | undefined;
	readHere: boolean;
}

/** The credential of one request, handed to each step. */
export class RequestCredential {
	private held: Promise<Read> | undefined;

	constructor(
		/** The node's credential id (undefined: nothing is remembered across requests). */
		readonly credentialId: string | undefined,
		private readonly readStored: () => Promise<PayOnUsCredential | undefined>,
		/** The clock the memory ages on (the trigger's). */
		private readonly now: () => number,
		private readonly memory: CredentialMemory = credentialMemory,
	) {}

	/** This request's read: the one it made or took already, else the remembered one, else one read now. */
	async current(): Promise<Read> {
		this.held ??= this.takeOrRead();
		return await this.held;
	}

	/** Reads the stored credential now; the request and the memory keep this read from then on. */
	async readNow(): Promise<PayOnUsCredential | undefined> {
		const read = this.readStored().then((credential) => {
			this.memory.remember(this.credentialId, credential, this.now());
			return { credential, readHere: true };
		});
		this.held = read;
		return (await read).credential;
	}

	/** The read the service's client gets: this request's, unless its token would be blanked or replaced (then read now). */
	async forClient(): Promise<PayOnUsCredential | undefined> {
		const { credential } = await this.current();
		return credential !== undefined && reusable(credential) ? credential : await this.readNow();
	}

	private async takeOrRead(): Promise<Read> {
		const remembered = this.memory.recent(this.credentialId, this.now());
		if (remembered !== undefined) return { credential: remembered, readHere: false };
		return { credential: await this.readNow(), readHere: true };
	}
}

/** The credential of one webhook request of the node, on the trigger's clock. */
export function requestCredentialOf(ctx: IWebhookFunctions, now: () => number): RequestCredential {
	return new RequestCredential(ctx.getNode().credentials?.payOnUsApi?.id ?? undefined, async () => await readCredential(ctx), now);
}
