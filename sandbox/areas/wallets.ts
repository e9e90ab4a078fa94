/** Wallets of a merchant's businesses and the pending settlements summary. */
import { ok, type Router } from '../router';
import { ApiError } from '../errors';
import { round2 } from '../money';
import type { Wallet } from '../records';
import { qRequired } from '../validate';

export function walletView(w: Wallet): Wallet {
	return { ...w };
}

export function registerWallets(router: Router): void {
	router.add('GET', '/api/v1/merchants/:merchantId/wallets', (ctx) => {
		const { state } = ctx.sb;
		const merchantId = ctx.params.merchantId;
		if (!state.merchants.has(merchantId)) throw new ApiError(404, `Merchant ${merchantId} not found`, [`merchantId: ${merchantId} not found`]);
		if (merchantId !== ctx.auth!.merchantId) {
			throw new ApiError(403, 'Insufficient authority for this merchant', [`merchantId: ${merchantId} is not your merchant`]);
		}
		const out: Wallet[] = [];
		for (const w of state.wallets.values()) {
			if (state.businesses.get(w.entityId)?.merchantId === merchantId) out.push(walletView(w));
		}
		return ok(out);
	});

	// Pending settlements summary (named by the spec without a path): collections
	// not yet credited to the wallet, for a business and currency, trailing 30 days.
	router.add('GET', '/api/v1/wallets/pending-settlements', (ctx) => {
		const { state } = ctx.sb;
		const business = state.ownedBusiness(qRequired(ctx.query, 'businessId'), ctx.auth!.merchantId);
		const currency = qRequired(ctx.query, 'currency');
		state.requireWallet(business.id, currency);
		const now = state.clock.nowMs();
		const since = now - 30 * 86_400_000;
		let totalAmount = 0;
		let count = 0;
		for (const credit of state.pendingCredits) {
			const p = state.payins.get(credit.onusReference);
			if (!p || p.businessId !== business.id || p.currency !== currency || p._createdMs < since) continue;
			totalAmount += p.settlementAmount;
			count++;
		}
		return ok({
			businessId: business.id,
			currency,
			totalAmount: round2(totalAmount),
			count,
			fromDate: new Date(since).toISOString().slice(0, 10),
			toDate: new Date(now).toISOString().slice(0, 10),
		});
	});
}
