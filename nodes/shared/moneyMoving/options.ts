import type { IDataObject } from 'n8n-workflow';
import type { MoneyMovingMark } from '../clientInterface';
import type { Expected } from './match';
import type { Proof } from './proof';

/**
 * 1. What a money-moving call declares (`moneyMoving` on a request, see
 * ../clientInterface.ts), and what it can end in: a record (flagged when it
 * was recovered, RecoveryNote) or an error with an `outcome` (MoneyOutcome).
 * Types only: ./lookup.ts builds these options for a payin or a transfer.
 */

export interface MoneyMovingOptions extends MoneyMovingMark {
	/**
	 * Finds the record holding this reference (for this business), by its
	 * reference. Resolves to undefined when there is none (a complete search
	 * found none). Throws when it cannot tell (the service failed, or the
	 * search hit its bound). Used after a timeout, a dropped connection or a
	 * 5xx, before anything is resent, and after a 409.
	 */
	lookup: () => Promise<IDataObject | undefined>;
	/**
	 * Compares a record of the service with this request: the differences
	 * found (empty: the record is this request). Applied to the answer of the
	 * call itself and to every record found by lookup. Without it, any record
	 * holding the reference counts as this request.
	 */
	check?: (record: IDataObject, mode: 'answer' | 'record') => string[];
	/**
	 * What the record must show (business, amount, currency, beneficiary
	 * account or customer phone): with `proof`, the fields a record must
	 * carry to prove this movement (./proof.ts; an absent field is never
	 * agreement).
	 */
	expected?: Partial<Omit<Expected, 'reference'>>;
	/** What proves a record is this movement (./proof.ts): the call's declared proof (./call.ts). */
	proof: Proof;
	/** This request in words, for messages (e.g. "NGN 100 to account 0123456789"). */
	describe?: string;
	/** What a record is called in messages (default "transaction"). */
	noun?: string;
	/**
	 * False when a lookup that finds nothing does NOT prove the call was not
	 * processed (bulk: nothing in the spec finds a batch): a lost answer then
	 * fails as "outcome unknown" instead of being resent. Default true.
	 */
	lookupProvesAbsence?: boolean;
	/**
	 * What a 409 (reference already used) on a FIRST attempt does when lookup
	 * finds a record holding the reference that matches this request:
	 * 'error' (default) raises a "duplicate reference" error carrying that
	 * record; 'returnExisting' returns it flagged `duplicateReference: true`.
	 * A 409 after an earlier attempt of this same call was lost is resolved by
	 * lookup (`recoveredByLookup: true`) or fails as "outcome unknown".
	 */
	onDuplicate?: 'error' | 'returnExisting';
}

/** Set on a record returned after a money-moving call was recovered by lookup. */
export interface RecoveryNote {
	recoveredByLookup?: boolean;
	duplicateReference?: boolean;
	/** The words of an error the service stated for the call whose record the lookup then found (rule 2). */
	serviceMessage?: string;
}

/** The outcome of a money-moving call that failed: declared with the error that carries it (../errors/apiError.ts). */
export type { MoneyOutcome } from '../errors/apiError';
