/**
 * The money-moving contract: how a call that moves money is sent, so that
 * it is never made twice and never reported wrongly. Read in this order:
 *
 * 0. call.ts     what makes an operation's call move money, declared once
 *                in the operation's file (`moneyCall`: path, proof, lookup,
 *                body fields), and the request built from it.
 * 1. options.ts  what a call declares (`moneyMoving` on a request: its
 *                merchant reference, how to look it up, how to check a
 *                record against the request) and what it can end in.
 * 2. send.ts     sending it, and what every answer means (rules 1 and 2 of
 *                docs/reliability.md): only a record that proves the
 *                movement is a success; a documented refusal is an error;
 *                anything else (a lost answer, 5xx, 429, an error stated in
 *                any shape, an answer that proves nothing) is looked up by
 *                reference BEFORE any resend; a 409 is resolved by lookup.
 * 2b. proof.ts   what proves a record is the movement (rule 1): a service
 *                reference of the operation's kind and the request's fields
 *                the record carries, per operation (its moneyCall.proof).
 * 3. lookup.ts   the lookup by merchant reference (payins, transfers): the
 *                whole list, bounded, never trusting a filter; moneyMoving()
 *                builds a call's options from it.
 * 4. match.ts    whether a record is this request (reference, business,
 *                amount, currency, beneficiary), and records in words.
 * 5. errors.ts   the errors it raises: outcome unknown, different owner,
 *                duplicate reference (already done, used by another record).
 *
 * A money-moving request carries its policy (send.ts moneyMovingParts); the
 * transport (../transport/index.ts) knows no policy: it runs the one a
 * request carries over its single attempts. Operations build the request
 * from their declaration (call.ts moneyRequest, sendMoney) and the options
 * with moneyMoving() (lookup.ts).
 */
export type { MoneyMovingOptions, MoneyOutcome, RecoveryNote } from './options';
export { type MoneyCaller, moneyMovingParts, REFUSAL_STATUSES, sendMoneyMoving } from './send';
export * from './call';
export { isServiceReference, PAYIN_RECORD, type Proof, type ProofField, TRANSFER_RECORD, unproven } from './proof';
export * from './lookup';
export { compare, describeExpected, describeRecord, type Expected, REFERENCE_KEYS, samePhone } from './match';
export { outcomeError, type OutcomeText } from './errors';
