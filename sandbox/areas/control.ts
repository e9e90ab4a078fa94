/**
 * The control API under /_sandbox (no auth, JSON, same envelope): reset,
 * webhooks settings, clock, faults, customer steps, settling held transfers
 * and refunds, link submissions, token expiry and refusal, ledger, request
 * log, deliveries, stats, config, and the public key for card data.
 */
import { z } from 'zod';
import { formatTimestamp } from '../clock';
import { sandboxKeys } from '../cards';
import type { FaultSpec } from '../faults';
import { ok, type Ctx, type Router } from '../router';
import { DEFAULT_CONFIG, type SandboxConfig, type SeedConfig } from '../config';
import { ApiError } from '../errors';
import { parse } from '../validate';
import { parseProfiles, PROFILE_DESCRIPTIONS, PROFILE_NAMES } from '../profiles';
import { expireToken, refuseTokens } from './auth';
import { customerDecision, payinView } from './payins/record';
import { OUTCOME_BY_SUFFIX } from './payouts/rules';
import { finishTransfer } from './payouts/transfer';
import { transferView } from './payouts/view';
import { finishRefund, refundView } from './refunds';
import { expireCardToken, linkView, refreshLink, submitCard, tokenView } from './tokenization';

const OUTCOMES = ['SUCCESSFUL', 'FAILED', ...Object.values(OUTCOME_BY_SUFFIX).filter((o) => o !== 'SUCCESSFUL' && o !== 'HOLD')];

const webhookSchema = z.object({
	url: z.string().url('must be a URL').nullable().optional(),
	verificationKey: z.string().nullable().optional(),
	duplicates: z.number().int().min(1, 'must be at least 1').max(10, 'must be at most 10').optional(),
	delayMs: z.number().int().min(0).max(60_000).optional(),
	outOfOrder: z.boolean().optional(),
});

const configSchema = z.object({
	transferDelayMs: z.number().int().min(0).optional(),
	momoAutoDelayMs: z.number().int().min(0).optional(),
	settlement: z.enum(['immediate', 'delay', 'T+1']).optional(),
	settlementDelaySeconds: z.number().min(0).optional(),
	payinFeePercent: z.number().min(0).max(100).optional(),
	payinFeeCap: z.number().min(0).optional(),
	maxSinglePayout: z.number().positive().optional(),
	linkMaxAttempts: z.number().int().min(1).optional(),
	requestLogLimit: z.number().int().min(10).optional(),
	tokenLifetimeSeconds: z.number().int().min(1).optional(),
	tokenCallsPerMinute: z.number().int().min(1).optional(),
	refundOutcome: z.enum(['SUCCESSFUL', 'FAILED', 'HOLD']).optional(),
});

function webhookSettings(ctx: Ctx) {
	const w = ctx.sb.state.webhooks;
	return { url: w.url, verificationKey: w.verificationKey, duplicates: w.duplicates, delayMs: w.delayMs, outOfOrder: w.outOfOrder };
}

function clockView(ctx: Ctx) {
	const c = ctx.sb.state.clock;
	return { now: c.now().toISOString(), timestamp: formatTimestamp(c.now()), offsetSeconds: c.offsetSeconds };
}

function payinFor(ctx: Ctx) {
	const p = ctx.sb.state.payins.get(ctx.params.ref);
	if (!p) throw new ApiError(404, `Payment ${ctx.params.ref} not found`, ['onusReference: not found']);
	return p;
}

function outcomeOf(ctx: Ctx): string {
	const outcome = String(ctx.body?.outcome ?? 'SUCCESSFUL');
	if (!OUTCOMES.includes(outcome)) throw new ApiError(400, `outcome must be one of ${OUTCOMES.join(', ')}`, [`outcome: must be one of ${OUTCOMES.join(', ')}`]);
	return outcome;
}

export function registerControl(router: Router): void {
	const r = (method: string, path: string, h: Parameters<Router['add']>[2]) => router.add(method, `/_sandbox${path}`, h, { auth: false });

	r('POST', '/reset', (ctx) => {
		const seed = ctx.body?.seed as SeedConfig | undefined;
		ctx.sb.reset(seed);
		return ok({ reset: true }, 'Sandbox reset');
	});

	r('GET', '/webhooks', (ctx) => ok(webhookSettings(ctx)));
	r('PUT', '/webhooks', (ctx) => {
		const input = parse(webhookSchema, ctx.body);
		const w = ctx.sb.state.webhooks;
		if (input.url !== undefined) w.url = input.url || null;
		if (input.verificationKey !== undefined) w.verificationKey = input.verificationKey || null;
		if (input.duplicates !== undefined) w.duplicates = input.duplicates;
		if (input.delayMs !== undefined) w.delayMs = input.delayMs;
		if (input.outOfOrder !== undefined) w.outOfOrder = input.outOfOrder;
		return ok(webhookSettings(ctx), 'Webhook settings saved');
	});

	r('GET', '/clock', (ctx) => ok(clockView(ctx)));
	r('POST', '/clock/advance', (ctx) => {
		const seconds = ctx.body?.seconds;
		if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
			throw new ApiError(400, 'seconds must be a number >= 0', ['seconds: must be a number >= 0']);
		}
		ctx.sb.state.clock.advance(seconds);
		ctx.sb.tick();
		return ok(clockView(ctx), 'Clock advanced');
	});
	r('POST', '/clock/set', (ctx) => {
		const at = new Date(String(ctx.body?.at ?? ''));
		if (Number.isNaN(at.getTime())) throw new ApiError(400, 'at must be an ISO date-time', ['at: must be an ISO date-time']);
		ctx.sb.state.clock.set(at);
		ctx.sb.tick();
		return ok(clockView(ctx), 'Clock set');
	});

	r('GET', '/faults', (ctx) => ok(ctx.sb.faults.list()));
	r('POST', '/faults', (ctx) => {
		const fault = ctx.sb.faults.add(ctx.body as FaultSpec);
		const { regex: _r, rngState: _s, ...view } = fault;
		return ok(view, 'Fault added');
	});
	r('DELETE', '/faults', (ctx) => {
		ctx.sb.faults.clear();
		return ok([], 'Faults cleared');
	});

	r('POST', '/payins/:ref/approve', (ctx) => ok(payinView(customerDecision(ctx.sb, payinFor(ctx), true)), 'Approved'));
	r('POST', '/payins/:ref/decline', (ctx) => ok(payinView(customerDecision(ctx.sb, payinFor(ctx), false)), 'Declined'));

	r('POST', '/transfers/:ref/settle', (ctx) => {
		const t = ctx.sb.state.transfers.get(ctx.params.ref);
		if (!t) throw new ApiError(404, `Transfer ${ctx.params.ref} not found`, ['onusReference: not found']);
		finishTransfer(ctx.sb, t, outcomeOf(ctx));
		return ok(transferView(t), 'Transfer settled');
	});
	r('POST', '/refunds/:ref/settle', (ctx) => {
		const rf = ctx.sb.state.refunds.get(ctx.params.ref);
		if (!rf) throw new ApiError(404, `Refund ${ctx.params.ref} not found`, ['onusReference: not found']);
		finishRefund(ctx.sb, rf, outcomeOf(ctx));
		return ok(refundView(rf), 'Refund settled');
	});

	r('POST', '/links/:id/submit', (ctx) => {
		const link = ctx.sb.state.links.get(ctx.params.id);
		if (!link) throw new ApiError(404, `Link ${ctx.params.id} not found`, ['id: link not found']);
		const b = ctx.body ?? {};
		const result = submitCard(ctx.sb, link, {
			cardNumber: b.cardNumber === undefined ? undefined : String(b.cardNumber).replace(/\s+/g, ''),
			expiry: b.expiry,
			cvv: b.cvv === undefined ? undefined : String(b.cvv),
			consent: b.consent === undefined ? true : Boolean(b.consent),
		});
		return ok({ ...result, link: linkView(link) }, result.message);
	});
	r('POST', '/links/:id/expire', (ctx) => {
		const link = ctx.sb.state.links.get(ctx.params.id);
		if (!link) throw new ApiError(404, `Link ${ctx.params.id} not found`, ['id: link not found']);
		if (link.status === 'PENDING') link._expiresMs = ctx.sb.state.clock.nowMs();
		return ok(linkView(refreshLink(ctx.sb, link)));
	});
	r('POST', '/tokens/:id/expire', (ctx) => ok(tokenView(expireCardToken(ctx.sb, ctx.params.id)), 'Card token expired'));
	r('POST', '/access-tokens/:clientId/expire', (ctx) => {
		if (!ctx.sb.state.clients.has(ctx.params.clientId)) throw new ApiError(404, 'Unknown client', ['clientId: not found']);
		return ok({ clientId: ctx.params.clientId, expired: expireToken(ctx.sb, ctx.params.clientId) });
	});
	r('PUT', '/access-tokens/:clientId/refusal', (ctx) => {
		if (!ctx.sb.state.clients.has(ctx.params.clientId)) throw new ApiError(404, 'Unknown client', ['clientId: not found']);
		const input = parse(z.object({ refuse: z.enum(['every', 'next', 'none']) }), ctx.body);
		refuseTokens(ctx.sb, ctx.params.clientId, input.refuse);
		return ok({ clientId: ctx.params.clientId, refuse: input.refuse }, 'Token refusal set');
	});

	r('GET', '/ledger', (ctx) => {
		const s = ctx.sb.state;
		return ok({
			clock: clockView(ctx),
			wallets: [...s.wallets.values()],
			entries: s.ledger,
			pendingCredits: s.pendingCredits,
			payins: [...s.payins.values()].map(payinView),
			fixedAccounts: [...s.fixedAccounts.values()],
			transfers: [...s.transfers.values()].map((t) => transferView(t)),
			refunds: [...s.refunds.values()].map(refundView),
			links: [...s.links.values()].map((l) => ({ ...linkView(refreshLink(ctx.sb, l)), attempts: l.attempts, lastError: l.lastError })),
			tokens: [...s.cardTokens.values()].map((t) => ({ ...tokenView(t), deleted: t.deleted, deletedDate: t.deletedDate })),
		});
	});

	r('GET', '/requests', (ctx) => {
		const q = ctx.query;
		const path = q.get('path');
		const method = q.get('method');
		const list = ctx.sb.state.requestLog.filter((e) => (!path || e.path.startsWith(path)) && (!method || e.method === method.toUpperCase()));
		return ok(list);
	});
	r('DELETE', '/requests', (ctx) => {
		ctx.sb.state.requestLog = [];
		return ok([], 'Request log cleared');
	});

	r('GET', '/deliveries', (ctx) => ok(ctx.sb.state.deliveries));
	r('DELETE', '/deliveries', (ctx) => {
		ctx.sb.state.deliveries = [];
		return ok([], 'Delivery log cleared');
	});

	r('GET', '/stats', (ctx) => {
		const s = ctx.sb.state;
		const clients: Record<string, unknown> = {};
		for (const id of s.clients.keys()) clients[id] = { ...s.clientStats(id), hasValidToken: s.currentTokenByClient.has(id) };
		return ok({ clients, unauthorizedWithoutClient: s.unauthorizedUnknown, requestsLogged: s.requestLog.length });
	});

	const profileView = (ctx: Ctx) => ({
		profiles: ctx.sb.profiles.list(),
		available: PROFILE_NAMES.map((name) => ({ name, description: PROFILE_DESCRIPTIONS[name] })),
	});
	r('GET', '/profile', (ctx) => ok(profileView(ctx)));
	r('POST', '/profile', (ctx) => {
		const input = parse(z.object({ profiles: z.array(z.string()) }), ctx.body);
		let names;
		try {
			names = parseProfiles(input.profiles);
		} catch (error) {
			throw new ApiError(400, (error as Error).message, [`profiles: ${(error as Error).message}`]);
		}
		ctx.sb.profiles.set(names);
		return ok(profileView(ctx), 'Profiles set');
	});

	r('GET', '/config', (ctx) => ok(ctx.sb.state.config));
	r('PUT', '/config', (ctx) => {
		const input = parse(configSchema, ctx.body) as Partial<SandboxConfig>;
		Object.assign(ctx.sb.state.config, input);
		return ok(ctx.sb.state.config, 'Config saved');
	});
	r('GET', '/config/defaults', () => ok(DEFAULT_CONFIG));

	r('GET', '/public-key', () => ok({ publicKey: sandboxKeys().publicPem, padding: 'RSA-OAEP', oaepHash: 'sha256 (sha1 also accepted)', plaintext: 'PAN|MM|YY|CVV' }));
}
