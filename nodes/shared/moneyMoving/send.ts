import type { IDataObject } from 'n8n-workflow';
import type { Attempts, RequestOptions, SendPolicy } from '../clientInterface';
import { type Failure, type PayOnUsApiError, requestError, serviceMessage } from '../errors';
import { PageLimitError } from '../api/paging';
import { redactText } from '../redact';
import { parseBody, payloadOf, statedFailure } from '../transport/envelope';
import { classifyFailure, isQuota, isUncertain, retryAfterOf } from '../transport/failure';
import { alreadyDone, differentOwner, outcomeError, type OutcomeText, referenceAlreadyUsed, unknownOutcome, usedByDifferent } from './errors';
import type { MoneyMovingOptions, MoneyOutcome } from './options';
import { type Proof, unproven } from './proof';

/**
 * 2. Sending a money-moving call: moneyMovingParts below gives the policy every
 * such request carries (./call.ts builds it), which the transport's
 * request() runs over its single attempts. The one place that decides what an answer
 * means (rules 1 and 2 of docs/reliability.md). Every answer reads as one of:
 * - proven: a record that proves this movement (./proof.ts): done;
 * - refused: a status the spec documents as a refusal (400, 401, 403, 404,
 *   410, 422, stated in the body or by HTTP), or no call made (token,
 *   unreachable): an error, nothing happened;
 * - conflict (409): a duplicate reference, resolved by lookup;
 * - anything else is handled like a lost answer, looked up by reference
 *   BEFORE anything is resent; a record that proves this movement: done
 *   (`recoveredByLookup`); a record holding the reference that differs:
 *   nothing was sent for this item (different owner); a record that does
 *   not prove it, or a lookup that cannot tell: "outcome unknown". Nothing
 *   found (the lookup read the whole list), by what the answer was:
 *   - lost (timeout, dropped connection, 5xx, 429 pushed back): resent with
 *     the same reference, at most `moneyMovingResends` times;
 *   - an error the service stated that is not a documented refusal (in a
 *     2xx body, or an undocumented 4xx): refused, the service's words in
 *     the error (the lookup proved nothing was made);
 *   - a 2xx answer that states no error yet proves nothing (empty, no
 *     service reference, another shape): "outcome unknown" (the service
 *     took it; the record may not be visible yet; never resent);
 *   - a call whose absence no lookup can prove (bulk): "outcome unknown".
 */

/** What a money-moving call needs of the transport (Attempts, with its errors worded). */
export interface MoneyCaller {
	/** One authenticated attempt; the raw body, or throws what n8n threw. */
	attempt(opts: RequestOptions): Promise<unknown>;
	error(f: Failure, opts: RequestOptions, extra?: { message?: string; description?: string; record?: IDataObject; outcome?: MoneyOutcome }): PayOnUsApiError;
	outcomeError(outcome: 'unknown' | 'differentOwner', opts: RequestOptions, text: OutcomeText): PayOnUsApiError;
	secrets(): string[];
	pause(ms: number): Promise<void>;
	backoff(attempt: number): number;
	readonly limits: { lookupAttempts: number; moneyMovingResends: number; pushBackRetries: number };
}

/** Statuses the spec's Errors table documents as refusals of the request (nothing processed). 409 and 429 have their own paths. */
export const REFUSAL_STATUSES = new Set([400, 401, 403, 404, 410, 422]);

/** What an answer (or its absence) means for the movement. */
type Reading =
	| { is: 'proven'; record: IDataObject }
	| { is: 'refused'; failure: Failure }
	| { is: 'conflict'; failure: Failure }
	| { is: 'pushedBack'; failure: Failure; how: string }
	| { is: 'lost'; failure: Failure; how: string }
	| { is: 'stated'; failure: Failure; how: string }
	| { is: 'unproven'; how: string };

/** A record judged against the request: values that differ (another record), and what keeps it from proving the movement. */
interface Judgement {
	differs: string[];
	missing: string[];
}

function judge(mm: MoneyMovingOptions, proof: Proof | undefined, record: unknown, mode: 'answer' | 'record'): Judgement {
	// What the record does not show, or a reference that is not the request's (rule 1, ./proof.ts).
	const missing = unproven(proof, record, { reference: mm.reference, expected: mm.expected }, mode);
	if (!record || typeof record !== 'object' || Array.isArray(record) || !mm.check) return { differs: [], missing };
	const r = record as IDataObject;
	// Values the record shows that are not the request's (absent ones are the proof's business).
	const differs = mm.check(r, 'answer');
	// A batch: every row must also be shown and match (the strict comparison of the rows), beyond the values that differ.
	if (proof?.batch) for (const p of mm.check(r, 'record')) if (!differs.includes(p)) missing.push(p);
	return { differs, missing };
}

function statusText(f: Failure): string {
	if (f.kind === 'http' || f.kind === 'auth') return f.status !== undefined ? `HTTP ${f.status}` : 'an error stated in a 2xx answer';
	return f.kind === 'timeout' ? 'timeout' : 'connection dropped';
}

/** Reads one attempt: what the answer (or what n8n threw) means. */
function read(opts: RequestOptions, mm: MoneyMovingOptions, proof: Proof | undefined, body: unknown, caught: unknown): Reading {
	if (caught !== undefined) return byFailure(classifyFailure(caught));
	const parsed = parseBody(body);
	if (parsed.failure) return { is: 'unproven', how: 'an answer that is not JSON' };
	// Rule 2: an error the body states is an error, whatever the 2xx status (../transport/envelope.ts).
	const stated = statedFailure(parsed.value);
	if (stated) return byFailure(stated);
	const data = payloadOf(parsed.value, opts.envelope);
	const { differs, missing } = judge(mm, proof, data, 'answer');
	if (differs.length === 0 && missing.length === 0) return { is: 'proven', record: data as IDataObject };
	return { is: 'unproven', how: `an answer that does not prove the ${mm.noun ?? 'transaction'} (${[...missing, ...differs].join('; ')})` };
}

function byFailure(f: Failure): Reading {
	if (f.kind === 'http' && f.status === 409) return { is: 'conflict', failure: f };
	if (isQuota(f)) return { is: 'pushedBack', failure: f, how: 'HTTP 429' };
	if (isUncertain(f)) return { is: 'lost', failure: f, how: statusText(f) };
	if (f.kind === 'http' && (f.status === undefined || !REFUSAL_STATUSES.has(f.status))) return { is: 'stated', failure: f, how: statusText(f) };
	return { is: 'refused', failure: f };
}

/** Runs the lookup with retries; `error` when it could not tell (failed each time, or hit its bound). */
async function runLookup(t: MoneyCaller, mm: MoneyMovingOptions, attempts: number): Promise<{ record?: IDataObject; error?: string }> {
	let why = 'unknown error';
	for (let attempt = 0; attempt < attempts; attempt++) {
		try {
			return { record: (await mm.lookup()) ?? undefined };
		} catch (error) {
			why = error instanceof Error ? redactText(error.message, t.secrets()) : String(error);
			if (error instanceof PageLimitError || (error as Error)?.name === 'PageLimitError') break;
			if (attempt + 1 < attempts) await t.pause(t.backoff(attempt));
		}
	}
	return { error: why };
}

function unknown(t: MoneyCaller, opts: RequestOptions, mm: MoneyMovingOptions, checked: string, httpCode?: string, record?: IDataObject): PayOnUsApiError {
	return t.outcomeError('unknown', opts, { ...unknownOutcome(mm, checked, httpCode), ...(record ? { record } : {}) });
}

/**
 * A record found by lookup: this movement (returned, flagged), another one
 * holding the reference (different owner), or one that does not prove it
 * (outcome unknown).
 */
function settleFound<T>(
	t: MoneyCaller,
	opts: RequestOptions,
	mm: MoneyMovingOptions,
	proof: Proof | undefined,
	record: IDataObject,
	context: { how: string; httpCode?: string; said?: string },
): T {
	const { differs, missing } = judge(mm, proof, record, 'record');
	if (differs.length > 0) throw t.outcomeError('differentOwner', opts, differentOwner(mm, record, differs, context.httpCode));
	if (missing.length > 0) {
		throw unknown(
			t,
			opts,
			mm,
			`after ${context.how}, the lookup by reference found a record holding it that does not prove this ${mm.noun ?? 'transaction'} (${missing.join('; ')}; shown under existingRecord)`,
			context.httpCode,
			record,
		);
	}
	return { ...record, recoveredByLookup: true, ...(context.said ? { serviceMessage: context.said } : {}) } as T;
}

/** A 409: after a lost answer our own attempt may have landed; on a first attempt, a duplicate reference. */
async function onConflict<T>(
	t: MoneyCaller,
	opts: RequestOptions,
	mm: MoneyMovingOptions,
	proof: Proof | undefined,
	failure: Failure,
	lost: { before: boolean; how: string },
): Promise<T> {
	const { record, error } = await runLookup(t, mm, lost.before ? t.limits.lookupAttempts : 2);
	if (lost.before) {
		if (record) return settleFound<T>(t, opts, mm, proof, record, { how: `${lost.how}, then a 409 on the resend`, httpCode: '409' });
		throw unknown(
			t,
			opts,
			mm,
			`an earlier attempt's answer was lost (${lost.how}), the lookup by reference found nothing, then the resend was refused as a duplicate (409), and looking again ${
				error ? `failed (${error})` : 'still found nothing'
			}, so an earlier attempt may have been processed`,
			'409',
		);
	}
	if (!record) throw t.error(failure, opts, referenceAlreadyUsed(mm, error));
	const { differs, missing } = judge(mm, proof, record, 'record');
	if (differs.length > 0) throw t.error(failure, opts, usedByDifferent(mm, record, differs));
	if (missing.length > 0) throw t.error(failure, opts, { ...referenceAlreadyUsed(mm), record });
	if (mm.onDuplicate === 'returnExisting') return { ...record, duplicateReference: true } as T;
	throw t.error(failure, opts, alreadyDone(mm, record));
}

export async function sendMoneyMoving<T>(t: MoneyCaller, opts: RequestOptions, mm: MoneyMovingOptions): Promise<T> {
	const proof = mm.proof;
	const lost = { before: false, how: '' };
	let pushBacks = 0;
	for (let resends = 0; ; resends++) {
		let body: unknown;
		let caught: unknown;
		try {
			body = await t.attempt(opts);
		} catch (error) {
			caught = error ?? new Error('unknown error');
		}
		const reading = read(opts, mm, proof, body, caught);
		if (reading.is === 'proven') return reading.record as T;
		if (reading.is === 'refused') throw t.error(reading.failure, opts);
		if (reading.is === 'conflict') return await onConflict<T>(t, opts, mm, proof, reading.failure, lost);

		// Anything else: looked up by reference before anything else happens.
		const failure = reading.is === 'unproven' ? undefined : reading.failure;
		const httpCode = failure?.status !== undefined ? String(failure.status) : undefined;
		// Rule 2: the words of an error the service stated reach every message that follows.
		const said = failure && reading.is !== 'lost' ? serviceMessage(failure.body) : undefined;
		const how = said ? `${reading.how}: PayOnUs said "${redactText(said, t.secrets())}"` : reading.how;
		lost.how = lost.how ? `${lost.how}, ${how}` : how;
		const { record, error } = await runLookup(t, mm, t.limits.lookupAttempts);
		if (error !== undefined) {
			throw unknown(
				t,
				opts,
				mm,
				`the answer was ${reading.is === 'lost' || reading.is === 'pushedBack' ? 'lost' : 'not a proof'} (${lost.how}) and looking it up by reference failed (${error}); the call may have been processed`,
				httpCode,
			);
		}
		if (record) return settleFound<T>(t, opts, mm, proof, record, { how: lost.how, httpCode, said: said ? redactText(said, t.secrets()) : undefined });
		if (reading.is === 'unproven') {
			throw unknown(
				t,
				opts,
				mm,
				`PayOnUs answered with ${reading.how}, and the lookup by reference found no record of it yet, so it may or may not have been made; it was not resent`,
			);
		}
		if (mm.lookupProvesAbsence === false) {
			throw unknown(
				t,
				opts,
				mm,
				`the answer was ${reading.is === 'stated' ? 'an error that does not prove a refusal' : 'lost'} (${lost.how}); the lookup found no record of it, but nothing the service offers can prove it was NOT processed, so it was not resent`,
				httpCode,
			);
		}
		if (reading.is === 'stated') {
			throw t.error(reading.failure, opts, {
				description: `Nothing was made for reference "${mm.reference}": PayOnUs stated this error and looking the reference up found no record holding it.`,
			});
		}
		if (reading.is === 'pushedBack' && pushBacks < t.limits.pushBackRetries) {
			// Pushed back (429) and nothing found by reference: resend after the Retry-After, not counted as a resend.
			pushBacks++;
			lost.before = true;
			resends--;
			await t.pause(Math.max(t.backoff(0), retryAfterOf(caught) ?? Math.min(10_000, t.backoff(pushBacks))));
			continue;
		}
		if (resends >= t.limits.moneyMovingResends) {
			throw t.error(reading.failure, opts, {
				description: `Nothing was created for reference "${mm.reference}" (checked by lookup after each attempt; sent ${resends + 1} time(s)). If you retry, keep the same reference.`,
			});
		}
		lost.before = true;
		await t.pause(t.backoff(resends));
	}
}

/** The transport's attempts as a MoneyCaller: its errors name the call's reference. */
function moneyCaller(via: Attempts, reference: string): MoneyCaller {
	return {
		attempt: async (opts) => await via.attempt(opts),
		error: (f, opts, extra) => via.fail(opts, (node, call) => requestError(node, f, { ...call, reference }, extra)),
		outcomeError: (outcome, opts, text) => via.fail(opts, (node, call) => outcomeError(node, outcome, { ...call, reference }, text)),
		secrets: () => via.secrets(),
		pause: async (ms) => await via.pause(ms),
		backoff: (attempt) => via.backoff(attempt),
		limits: via.limits,
	};
}

/**
 * The parts a money-moving request carries (./call.ts moneyRequest): its
 * mark, and the policy holding its options, to which the transport hands
 * its attempts.
 */
export function moneyMovingParts(options: MoneyMovingOptions): { moneyMoving: MoneyMovingOptions; policy: SendPolicy } {
	const policy: SendPolicy = {
		async send<T>(via: Attempts, opts: RequestOptions): Promise<T> {
			return await sendMoneyMoving<T>(moneyCaller(via, options.reference), opts, options);
		},
	};
	return { moneyMoving: options, policy };
}
