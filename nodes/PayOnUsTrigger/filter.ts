import type { IDataObject } from 'n8n-workflow';
import { booleanParameter } from '../shared/parameters';
import { readFilters, splitList, statusSelected, type TriggerFilters } from '../shared/triggerOptions';
import { EVENTS, eventStatus, type EventName, type Notification } from './notification';

/**
 * Step 3 of receive.ts (filter): the node's Events, Statuses and Only Business IDs, and how an event that passes is to be checked (the two
 * confirmation switches). An event filtered out is answered 200 with
 * `ignored` and starts nothing. The status is signed; the business is not,
 * so with Confirm With the Service on it is checked against the service's
 * record instead (confirm.ts).
 */

/** How an event that passes is checked before it starts the workflow. */
export type Check =
	/** Signed, emitted as received (Confirm With the Service off, or a refund). */
	| 'signature'
	/** A signed COLLECTION or PAYOUT, re-read from the service (confirm.ts). */
	| 'record'
	/** A tokenization notification, its link read back (tokenization.ts). */
	| 'link'
	/** A tokenization notification with confirmation off: unverified. */
	| 'none';

export interface Route {
	check: Check;
	/** Only Business IDs, to check against the service's record (check `record`); the others were checked here. */
	businessIds: string[];
}

/** Checks that read the service before the workflow starts (the answer goes out first). */
export function isConfirming(check: Check): check is 'record' | 'link' {
	return check === 'record' || check === 'link';
}

/** The node's parameters, as n8n reads them (name, fallback). */
export type Parameters = (name: string, fallback: unknown) => unknown;

export interface Filters {
	statuses: string[];
	/** Compared with `businessId` of the body given (the confirmed record when confirmation is on). */
	businessIds: string[];
}

/** The Statuses parameter's default: a workflow that pays out on a collection never starts on a pending or failed one. */
export const DEFAULT_STATUSES = ['SUCCESSFUL'];

/**
 * The node's status and business filters for an event: the Statuses
 * parameter, for payment events (a tokenization notification is always
 * COMPLETED: not filtered by status; an empty list lets every status
 * through), and Options > Only Business IDs. Read here only (receive.ts and
 * the test event).
 */
export function nodeFilters(parameters: Parameters, event?: EventName): TriggerFilters {
	const { businessIds } = readFilters(parameters('options', {}) as IDataObject);
	if (event === EVENTS.cardTokenizationLinkCompleted) return { statuses: [], businessIds };
	return { statuses: splitList(parameters('statuses', DEFAULT_STATUSES)).map((s) => s.toUpperCase()), businessIds };
}

/** Undefined when the event passes the filters, else why it is ignored. */
export function filteredOut(event: EventName, body: IDataObject, filters: Filters): string | undefined {
	if (filters.businessIds.length > 0) {
		const business = typeof body.businessId === 'string' ? body.businessId : String(body.businessId ?? '');
		if (!filters.businessIds.includes(business)) return 'business not selected';
	}
	if (!statusSelected(eventStatus(event, body), filters.statuses)) return 'status not selected';
	return undefined;
}

/**
 * A confirmation switch, read strictly (an expression giving "" or "yes" is
 * no clear answer). Unreadable, it takes its strict side, confirmation ON,
 * and the log says why: refusing the notification instead would lose a
 * tokenization event (sent once, never retried).
 */
export function strictSwitch(parameters: Parameters, name: string, warn: (message: string) => void): boolean {
	try {
		return booleanParameter(parameters, name, true);
	} catch (error) {
		warn(`PayOnUs Trigger: ${(error as Error).message}; confirming with the service as if it were on`);
		return true;
	}
}

/** How an event is checked, given the two switches. */
export function checkOf(event: EventName, confirmWithService: boolean, confirmTokenization: boolean): Check {
	if (event === EVENTS.cardTokenizationLinkCompleted) return confirmTokenization ? 'link' : 'none';
	return (event === EVENTS.collection || event === EVENTS.payout) && confirmWithService ? 'record' : 'signature';
}

/** The route of an event that passes, else why it is ignored. Parameters are read only as far as needed. */
export function filterEvent(
	notification: Notification,
	parameters: Parameters,
	warn: (message: string) => void,
): Route | { ignored: string } {
	const { event, body } = notification;
	if (!splitList(parameters('events', [])).includes(event)) return { ignored: 'event not selected' };
	const { statuses, businessIds } = nodeFilters(parameters, event);
	const confirmWithService = strictSwitch(parameters, 'confirmWithService', warn);
	const confirmTokenization = strictSwitch(parameters, 'confirmTokenization', warn);
	const check = checkOf(event, confirmWithService, confirmTokenization);
	const why = filteredOut(event, body, { statuses, businessIds: check === 'record' ? [] : businessIds });
	if (why !== undefined) return { ignored: why };
	return { check, businessIds };
}
