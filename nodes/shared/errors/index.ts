/**
 * The one error class. Every failure of a call to PayOnUs reaches the
 * operations, the triggers and n8n as a PayOnUsApiError: an n8n
 * NodeApiError (so n8n shows it as usual: message, description, httpCode,
 * context.itemIndex) that also carries, typed, what the code acts on: the
 * HTTP `status`, the service's own words, the `reference` of a money-moving
 * call and the outcome fields of its recovery (`outcome`, `existingRecord`).
 * The words of the money-moving outcomes (outcome unknown, different owner,
 * duplicate reference) are the contract's own: moneyMoving/errors.ts.
 *
 * Messages are plain sentences for workflow builders. Nothing here ever
 * returns the token, the client secret, the verification key or card data:
 * bodies and texts are cleaned (redact.ts) before they are put into an error.
 */

export { type Failure, type FailureKind, type MoneyOutcome, PayOnUsApiError, type PayOnUsApiErrorInit } from './apiError';
export { type FailedCall, requestError, setupError } from './requestError';
export { type Meaning, explain, MAX_TITLE_WORDS, retitle, statusOf, wordCount } from './explain';
export { isTokenRejectedSignal, TOKEN_CALL_CODE, TOKEN_REJECTED_CODE, TokenCallError, TokenRejectedSignal } from './tokenErrors';
export { type NamedField, namedField, type ServiceErrorSummary, statusHint, statusTitle, summarizeHttpError } from './titles';
export { networkReason, serviceMessage, STATUS_MEANINGS, statusMeaning } from './wording';
