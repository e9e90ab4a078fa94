/** `httpCode` of our token errors: n8n's NodeApiError keeps it (and drops `cause`). */
export const TOKEN_REJECTED_CODE = 'PAYONUS_TOKEN_REJECTED';
export const TOKEN_CALL_CODE = 'PAYONUS_TOKEN_CALL';
const REJECTED_SIGNAL = Symbol.for('n8n-nodes-payonus.tokenRejected');

/**
 * Thrown by preAuthentication for a transport call whose token was refused
 * and for which this process knows nothing newer: the transport then re-reads
 * the stored credential (another process may have stored a newer token) and
 * only then asks for a mint. Saves n8n's blind resend with the same token.
 */
export class TokenRejectedSignal extends Error {
	readonly httpCode = TOKEN_REJECTED_CODE;
	constructor() {
		super('PayOnUs refused the access token; the stored credential is checked for a newer one');
		this.name = 'TokenRejectedSignal';
		Object.defineProperty(this, REJECTED_SIGNAL, { value: true, enumerable: false });
	}
}

export function isTokenRejectedSignal(error: unknown): boolean {
	return !!error && typeof error === 'object' && (error as Record<symbol, unknown>)[REJECTED_SIGNAL] === true;
}

/** A token call that failed; the message is safe to show (no secret, no token). */
export class TokenCallError extends Error {
	readonly httpCode = TOKEN_CALL_CODE;
	constructor(
		message: string,
		/** `tokensRefused`: no token call made, the service refuses every new token of the client (accessToken/cache.ts). */
		readonly kind: 'rejected' | 'rateLimited' | 'unreachable' | 'unexpected' | 'tokensRefused',
		readonly httpStatus?: number,
		readonly retryAfterMs?: number,
		/** What to check, shown under the message (n8n's NodeApiError keeps it when it wraps this error). */
		readonly description?: string,
	) {
		super(message);
		this.name = 'TokenCallError';
	}
}
