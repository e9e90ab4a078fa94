/**
 * POST /api/v1/access-token and the bearer check of every other /api/v1 call.
 * One valid token per client (a new one retires the previous at once), at most
 * `tokenCallsPerMinute` (3) accepted token calls per client per rolling minute
 * of the sandbox clock (more answer 429), tokens expire after 86399 s.
 * Test control: `refuseTokens` (the token call still answers a token, which
 * every call then refuses with 401).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { Router } from '../router';
import { ApiError } from '../errors';
import type { AccessToken, TokenRefusal } from '../records';
import type { Sandbox } from '../runtime';
import { parse, str } from '../validate';

const tokenSchema = z.object({ apiClientId: str(), apiClientSecret: str() });

export function issueToken(sb: Sandbox, clientId: string): AccessToken {
	const state = sb.state;
	const client = state.clients.get(clientId);
	if (!client) throw new Error(`unknown client ${clientId}`);
	const previous = state.currentTokenByClient.get(clientId);
	if (previous) {
		state.tokens.delete(previous);
		state.retiredTokens.set(previous, clientId);
	}
	const now = state.clock.nowMs();
	const token: AccessToken = {
		token: `sbx_${randomBytes(24).toString('base64url')}`,
		clientId,
		merchantId: client.merchantId,
		issuedMs: now,
		expiresMs: now + state.config.tokenLifetimeSeconds * 1000,
	};
	state.tokens.set(token.token, token);
	state.currentTokenByClient.set(clientId, token.token);
	state.clientStats(clientId).tokensIssued++;
	const refusal = state.tokenRefusal.get(clientId);
	if (refusal) {
		// Refused from its first use, as if another installation had taken a token right after.
		if (refusal === 'next') state.tokenRefusal.delete(clientId);
		expireToken(sb, clientId);
	}
	return token;
}

/** Test control: every token the client gets from now on is refused on use, only the next one, or none. */
export function refuseTokens(sb: Sandbox, clientId: string, refuse: TokenRefusal | 'none'): void {
	if (refuse === 'none') sb.state.tokenRefusal.delete(clientId);
	else sb.state.tokenRefusal.set(clientId, refuse);
}

/** Retires a client's current token (control API). Returns whether there was one. */
export function expireToken(sb: Sandbox, clientId: string): boolean {
	const state = sb.state;
	const current = state.currentTokenByClient.get(clientId);
	if (!current) return false;
	state.tokens.delete(current);
	state.currentTokenByClient.delete(clientId);
	state.retiredTokens.set(current, clientId);
	return true;
}

export function authenticate(sb: Sandbox, req: IncomingMessage): AccessToken {
	const state = sb.state;
	const header = req.headers.authorization;
	if (!header) {
		state.unauthorizedUnknown++;
		throw new ApiError(401, 'Missing bearer token', ['Authorization: header is required (Bearer <token>)']);
	}
	const m = /^Bearer\s+(\S+)$/i.exec(header);
	if (!m) {
		state.unauthorizedUnknown++;
		throw new ApiError(401, 'Invalid authorization header', ['Authorization: must be "Bearer <token>"']);
	}
	const token = state.tokens.get(m[1]);
	if (!token) {
		const owner = state.retiredTokens.get(m[1]);
		if (owner) {
			state.clientStats(owner).unauthorized++;
			throw new ApiError(401, 'Access token is no longer valid', ['Authorization: token was replaced by a newer token or expired']);
		}
		state.unauthorizedUnknown++;
		throw new ApiError(401, 'Invalid access token', ['Authorization: token is not valid']);
	}
	if (state.clock.nowMs() >= token.expiresMs) {
		state.tokens.delete(token.token);
		state.currentTokenByClient.delete(token.clientId);
		state.retiredTokens.set(token.token, token.clientId);
		state.clientStats(token.clientId).unauthorized++;
		throw new ApiError(401, 'Access token expired', ['Authorization: token expired']);
	}
	return token;
}

export function registerAuth(router: Router): void {
	router.add(
		'POST',
		'/api/v1/access-token',
		(ctx) => {
			const state = ctx.sb.state;
			const input = parse(tokenSchema, ctx.body);
			const client = state.clients.get(input.apiClientId);
			if (!client) {
				state.unauthorizedUnknown++;
				throw new ApiError(401, 'Invalid client credentials', ['apiClientId: unknown client or wrong secret']);
			}
			const stats = state.clientStats(client.clientId);
			stats.tokenCalls++;
			const now = state.clock.nowMs();
			const window = (state.tokenCallTimes.get(client.clientId) ?? []).filter((t) => t > now - 60_000);
			if (window.length >= state.config.tokenCallsPerMinute) {
				state.tokenCallTimes.set(client.clientId, window);
				stats.rateLimited++;
				const retryAfter = Math.max(1, Math.ceil((window[0] + 60_000 - now) / 1000));
				throw new ApiError(429, `Too many access token requests: at most ${state.config.tokenCallsPerMinute} per minute (retry in ${retryAfter} s)`, [
					`apiClientId: rate limited, retry in ${retryAfter} s`,
				]);
			}
			window.push(now);
			state.tokenCallTimes.set(client.clientId, window);
			if (client.clientSecret !== input.apiClientSecret) {
				stats.invalidSecret++;
				throw new ApiError(401, 'Invalid client credentials', ['apiClientId: unknown client or wrong secret']);
			}
			const token = issueToken(ctx.sb, client.clientId);
			const fields = {
				access_token: token.token,
				token_type: 'Bearer',
				expires_in: state.config.tokenLifetimeSeconds,
			};
			// Both shapes: the envelope's data and the three fields at the top level.
			return { status: 200, message: 'Successful', data: fields, extra: fields };
		},
		{ auth: false },
	);
}
