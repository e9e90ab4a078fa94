import type { IDataObject } from 'n8n-workflow';
import type { RequestOptions } from '../clientInterface';
import type { Failure, PayOnUsApiError } from '../errors';
import { PageLimitError } from '../api/paging';
import { redactText } from '../redact';
import { envelopeFailure } from '../transport/envelope';
import { classifyFailure, isUncertain, retryAfterOf } from '../transport/failure';
import { alreadyDone, differentOwner, type OutcomeText, referenceAlreadyUsed, unknownOutcome, usedByDifferent } from './errors';
import type { MoneyMovingOptions, MoneyOutcome } from './options';

/**
 * 2. Sending a money-moving call (the transport's request() hands every call
 * with `moneyMoving` set here). Never resent blindly:
 * - a lost answer (timeout, dropped connection, 5xx) is resolved by lookup
 *   first: a record matching this request is returned (`recoveredByLookup`);
 *   a record holding the reference that does not match means nothing was
 *   sent for this item (error); nothing found (the lookup read the whole
 *   list) allows a resend with the same reference, at most
 *   `moneyMovingResends` times; a lookup that cannot tell, or a call whose
 *   absence no lookup can prove (bulk), fails as "outcome unknown";
 * - a 409 after a lost answer: resolved by lookup, else "outcome unknown";
 * - a 409 on a first attempt: a duplicate reference (the reference was
 *   already used), with the record holding it when the lookup finds it;
 * - every answer is checked against the request (`check`).
 */

/** What a money-moving call needs of the transport. */
export interface MoneyCaller {
	/** One authenticated attempt; the raw body, or throws what n8n threw. */
	attempt(opts: RequestOptions): Promise<unknown>;
	/** The envelope's data (throws a PayOnUsApiError for an error inside it). */
	unwrap<T>(body: unknown, opts: RequestOptions): T;
	error(f: Failure, opts: RequestOptions, extra?: { message?: string; description?: string; record?: IDataObject; outcome?: MoneyOutcome }): PayOnUsApiError;
	outcomeError(outcome: 'unknown' | 'differentOwner', opts: RequestOptions, text: OutcomeText): PayOnUsApiError;
	secrets(): string[];
	pause(ms: number): Promise<void>;
	backoff(attempt: number): number;
	readonly limits: { lookupAttempts: number; moneyMovingResends: number; pushBackRetries: number };
}

function differences(mm: MoneyMovingOptions, record: IDataObject, mode: 'answer' | 'record' = 'record'): string[] {
	return mm.check ? mm.check(record, mode) : [];
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

/** A 409: after a lost answer our own attempt may have landed; on a first attempt, a duplicate reference. */
async function onConflict<T>(
	t: MoneyCaller,
	opts: RequestOptions,
	mm: MoneyMovingOptions,
	failure: Failure,
	lost: { before: boolean; how: string },
): Promise<T> {
	const { record, error } = await runLookup(t, mm, lost.before ? t.limits.lookupAttempts : 2);
	const diff = record ? differences(mm, record) : [];
	if (lost.before) {
		if (record && diff.length === 0) return { ...record, recoveredByLookup: true } as T;
		if (record) throw t.outcomeError('differentOwner', opts, differentOwner(mm, record, diff, '409'));
		throw t.outcomeError(
			'unknown',
			opts,
			unknownOutcome(
				mm,
				`an earlier attempt's answer was lost (${lost.how}), the lookup by reference found nothing, then the resend was refused as a duplicate (409), and looking again ${
					error ? `failed (${error})` : 'still found nothing'
				}, so an earlier attempt may have been processed`,
				'409',
			),
		);
	}
	if (record && diff.length === 0 && mm.onDuplicate === 'returnExisting') {
		return { ...record, duplicateReference: true } as T;
	}
	if (record && diff.length > 0) throw t.error(failure, opts, usedByDifferent(mm, record, diff));
	if (record) throw t.error(failure, opts, alreadyDone(mm, record));
	throw t.error(failure, opts, referenceAlreadyUsed(mm, error));
}

export async function sendMoneyMoving<T>(t: MoneyCaller, opts: RequestOptions, mm: MoneyMovingOptions): Promise<T> {
	const lost = { before: false, how: '' };
	let pushBacks = 0;
	for (let resends = 0; ; resends++) {
		let failure: Failure | undefined;
		let body: unknown;
		let caught: unknown;
		try {
			body = await t.attempt(opts);
		} catch (error) {
			caught = error;
			failure = classifyFailure(error);
		}
		if (!failure) {
			// An error inside a 200 envelope counts as that status (a 409 or a 5xx included; a 401 is unwrap's).
			const inside = envelopeFailure(body);
			if (inside && inside.kind !== 'auth') failure = inside;
		}
		if (!failure) {
			const data = t.unwrap<IDataObject>(body, opts);
			if (data && typeof data === 'object' && !Array.isArray(data)) {
				const diff = differences(mm, data, 'answer');
				if (diff.length > 0) throw t.outcomeError('differentOwner', opts, differentOwner(mm, data, diff));
			}
			return data as T;
		}
		if (failure.kind === 'http' && failure.status === 409) return await onConflict<T>(t, opts, mm, failure, lost);
		// A 429 ("too many requests"): the spec does not say it was refused
		// before processing, so it is treated as a lost answer (lookup first),
		// with its own bound and its Retry-After.
		const pushedBack = failure.kind === 'http' && failure.status === 429;
		if (!isUncertain(failure) && !pushedBack) throw t.error(failure, opts);
		const how = failure.kind === 'http' ? `HTTP ${failure.status}` : failure.kind === 'timeout' ? 'timeout' : 'connection dropped';
		lost.how = lost.how ? `${lost.how}, ${how}` : how;
		const httpCode = failure.status !== undefined ? String(failure.status) : undefined;
		const { record, error } = await runLookup(t, mm, t.limits.lookupAttempts);
		if (error !== undefined) {
			throw t.outcomeError(
				'unknown',
				opts,
				unknownOutcome(
					mm,
					`the answer was lost (${lost.how}) and looking it up by reference failed (${error}); the call may have been processed`,
					httpCode,
				),
			);
		}
		if (record) {
			const diff = differences(mm, record);
			if (diff.length > 0) throw t.outcomeError('differentOwner', opts, differentOwner(mm, record, diff));
			return { ...record, recoveredByLookup: true } as T;
		}
		if (mm.lookupProvesAbsence === false) {
			throw t.outcomeError(
				'unknown',
				opts,
				unknownOutcome(
					mm,
					`the answer was lost (${lost.how}); the lookup found no record of it, but nothing the service offers can prove it was NOT processed, so it was not resent`,
					httpCode,
				),
			);
		}
		if (pushedBack && pushBacks < t.limits.pushBackRetries) {
			// Pushed back (429) and nothing found by reference: resend after the Retry-After, not counted as a resend.
			pushBacks++;
			lost.before = true;
			resends--;
			await t.pause(Math.max(t.backoff(0), retryAfterOf(caught) ?? Math.min(10_000, t.backoff(pushBacks))));
			continue;
		}
		if (resends >= t.limits.moneyMovingResends) {
			throw t.error(failure, opts, {
				description: `Nothing was created for reference "${mm.reference}" (checked by lookup after each attempt; sent ${resends + 1} time(s)). If you retry, keep the same reference.`,
			});
		}
		lost.before = true;
		await t.pause(t.backoff(resends));
	}
}
