/**
 * The money-moving contract: how a call that moves money is sent, so that
 * it is never made twice and never reported wrongly. Read in this order:
 *
 * 1. options.ts  what a call declares (`moneyMoving` on a request: its
 *                merchant reference, how to look it up, how to check a
 *                record against the request) and what it can end in.
 * 2. send.ts     sending it: once; after a lost answer (timeout, dropped
 *                connection, 5xx, 429) the reference is looked up BEFORE any
 *                resend; a 409 is resolved by lookup; every answer is checked.
 * 3. lookup.ts   the lookup by merchant reference (payins, transfers): the
 *                whole list, bounded, never trusting a filter; moneyMoving()
 *                builds a call's options from it.
 * 4. match.ts    whether a record is this request (reference, business,
 *                amount, currency, beneficiary), and records in words.
 * 5. errors.ts   the errors it raises: outcome unknown, different owner,
 *                duplicate reference (already done, used by another record).
 *
 * The transport (../transport/index.ts) hands every call with `moneyMoving`
 * set to sendMoneyMoving; operations build the options with moneyMoving().
 */
export type { MoneyMovingOptions, MoneyOutcome, RecoveryNote } from './options';
export { type MoneyCaller, sendMoneyMoving } from './send';
export * from './lookup';
export { compare, describeExpected, describeRecord, type Expected, REFERENCE_KEYS, samePhone } from './match';
export { outcomeError, type OutcomeText } from './errors';
