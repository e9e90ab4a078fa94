// Moved to nodes/shared/api/lookup.ts. Only nodes/PayOnUsPaymentPage/checkout.ts
// still imports this path: delete this file when its import is switched to '../shared/api'.
export { findByReference, PAYMENT_REQUESTS } from '../../shared/api';
