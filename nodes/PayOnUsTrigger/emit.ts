import type { IDataObject, IWebhookResponseData } from 'n8n-workflow';
import { unconfirmedItem } from './items';
import { eventReference, type Notification } from './notification';

/**
 * Step 6 of receive.ts (emit): the HTTP answer PayOnUs gets, and what the
 * workflow gets on its two outputs: Confirmed (the first) and Unconfirmed.
 *
 * Every answer is written by this node (`noWebhookResponse`): n8n sends
 * nothing more. A refused request starts nothing; an event the service does
 * not confirm goes to Unconfirmed with `confirmation.reason`, and a warning
 * is logged: an execution exists for the operator to see, and a workflow
 * wired to the first output only never pays on it.
 */

/**
 * The two outputs' names on the canvas (not saved in workflows: connections
 * are by index), a pair that reads as opposites and fits under the node.
 * Log lines and docs name the outputs by these.
 */
export const OUTPUTS = { confirmed: 'Confirmed', unconfirmed: 'Unconfirmed' } as const;
export const OUTPUT_NAMES: string[] = [OUTPUTS.confirmed, OUTPUTS.unconfirmed];

/** An HTTP answer to the sender. */
export interface Answer {
	status: number;
	body: IDataObject;
}

/** Accepted (whatever then starts). */
export const received = (): Answer => ({ status: 200, body: { received: true } });
/** A repeat of an event already claimed (claim.ts): nothing starts. */
export const duplicate = (): Answer => ({ status: 200, body: { received: true, duplicate: true } });
/** Accepted and ignored by the node's filters (filter.ts). */
export const ignored = (why: string): Answer => ({ status: 200, body: { received: true, ignored: why } });
/** Refused: not read (read.ts) or not authentic (authenticate.ts). */
export const refusal = (status: number, message: string): Answer => ({ status, body: { received: false, message } });

/** The response n8n hands the node (express), as far as answering goes. */
export interface Responder {
	status(code: number): { json(body: unknown): unknown };
}

/** The lines the trigger logs about an event's outcome. */
export interface OutcomeLog {
	warn(message: string): void;
	info(message: string): void;
}

/**
 * How a confirmation ended (confirm.ts, tokenization.ts). The claim step
 * settles its memories by it (claim.ts), this step emits it.
 */
export type Verdict =
	/** Confirmed: the item goes to the Confirmed output; the service's `record` dates its key (claim.ts). */
	| { kind: 'confirmed'; item: IDataObject; record?: IDataObject; cardTokenUnchecked?: boolean }
	/** Not confirmed: the item goes to the Unconfirmed output (once; later copies are held back). */
	| { kind: 'notConfirmed'; item: IDataObject; reason: string }
	/** Confirmed, for a business the Only Business IDs filter does not select: ignored. */
	| { kind: 'otherBusiness'; businessId: string }
	/** A tokenization link PayOnUs does not have: a made-up notification. */
	| { kind: 'forged' };

/** Writes the answer now (the confirmation, if any, follows). */
export function respond(res: Responder, answer: Answer): void {
	res.status(answer.status).json(answer.body);
}

/** The node's result: the answer is out, these items start the workflow (none: nothing starts). */
export function started(confirmed: IDataObject[], unconfirmed: IDataObject[]): IWebhookResponseData {
	if (confirmed.length === 0 && unconfirmed.length === 0) return { noWebhookResponse: true };
	return {
		noWebhookResponse: true,
		workflowData: [confirmed.map((json) => ({ json })), unconfirmed.map((json) => ({ json }))],
	};
}

/** Answers and starts nothing. */
export function answered(res: Responder, answer: Answer): IWebhookResponseData {
	respond(res, answer);
	return started([], []);
}

/** What a confirmed (or not) event starts, and the line logged about it; the answer went out before. */
export function emit(verdict: Verdict, notification: Notification, recheck: boolean, log: OutcomeLog): IWebhookResponseData {
	const { event, body } = notification;
	const reference = eventReference(event, body);
	switch (verdict.kind) {
		case 'confirmed':
			if (verdict.cardTokenUnchecked) {
				log.info(
					`PayOnUs Trigger: tokenization link ${reference} confirmed COMPLETED; its card token could not be checked (no Merchant ID to search links with)`,
				);
			}
			return started([verdict.item], []);
		case 'otherBusiness':
			log.info(`PayOnUs Trigger: ${event} ${reference} is for business ${verdict.businessId} (confirmed), not selected; ignored`);
			return started([], []);
		case 'forged':
			log.warn(
				`PayOnUs Trigger: tokenization notification for link ${reference} was not confirmed (PayOnUs has no such link for business ${String(body.businessId ?? '')}); no execution started`,
			);
			return started([], []);
		case 'notConfirmed':
			if (recheck) {
				log.info(
					`PayOnUs Trigger: ${event} ${reference} was checked again and still not confirmed (${verdict.reason}); no new execution`,
				);
				return started([], []);
			}
			log.warn(
				`PayOnUs Trigger: ${event} ${reference} was not confirmed (${verdict.reason}); sent to the ${OUTPUTS.unconfirmed} output, not to ${OUTPUTS.confirmed}`,
			);
			return started([], [unconfirmedItem(verdict.item, verdict.reason)]);
	}
}
