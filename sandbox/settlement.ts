/**
 * When a successful payin reaches the wallet: at once, after a delay, or on
 * the next business day (T+1), by the sandbox clock. Credits wait in
 * `state.pendingCredits` (sorted by due time) until the clock reaches them.
 */
import { nextBusinessDay } from './clock';
import type { Payin } from './records';
import type { SandboxState } from './store';

/**
 * Queues the wallet credit of a payin that has just succeeded, and books every
 * credit now due. `touch` (profile `updated-date-moves-later`): a credit also
 * moves the payin's lastUpdatedDate.
 */
export function scheduleCredit(state: SandboxState, p: Payin, touch = false): void {
	const now = state.clock.nowMs();
	const cfg = state.config;
	const dueMs = cfg.settlement === 'T+1' ? nextBusinessDay(now) : cfg.settlement === 'delay' ? now + cfg.settlementDelaySeconds * 1000 : now;
	state.pendingCredits.push({ dueMs, onusReference: p.onusReference });
	state.pendingCredits.sort((a, b) => a.dueMs - b.dueMs);
	processDueCredits(state, touch);
}

/** Credits wallets for successful payins whose settlement time has come (sandbox clock). */
export function processDueCredits(state: SandboxState, touch = false): void {
	const now = state.clock.nowMs();
	while (state.pendingCredits.length > 0 && state.pendingCredits[0].dueMs <= now) {
		const credit = state.pendingCredits.shift()!;
		const p = state.payins.get(credit.onusReference);
		if (!p) continue;
		const wallet = state.wallet(p.businessId, p.currency);
		if (!wallet) continue;
		state.post(wallet, 'PAYIN_CREDIT', p.settlementAmount, p.onusReference);
		p.forwardedForSettlement = true;
		if (touch) p.lastUpdatedDate = state.now();
	}
}
