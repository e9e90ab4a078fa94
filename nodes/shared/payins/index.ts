/**
 * The payins, written once for the PayOnUs node's operations and the
 * Payment Page: typed calls (calls.ts) checking their bodies first
 * (bodies.ts; the customer object: customer.ts), and the money-moving
 * request every payin makes (post.ts, over ../moneyMoving/).
 */
export * from './bodies';
export * from './calls';
export * from './customer';
export * from './post';
