/**
 * The payins, for the PayOnUs node's operations and the Payment Page: the
 * money-moving request every payin makes, as its operation declares it
 * (post.ts, over ../moneyMoving/), what the bodies share (bodies.ts; the
 * customer object: customer.ts), and the calls that move no money (calls.ts).
 */
export * from './bodies';
export * from './calls';
export * from './customer';
export * from './post';
