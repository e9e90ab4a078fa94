/**
 * Profile `duplicate-returns-existing`: a money-moving call whose reference is
 * already used answers 200 with the EXISTING record instead of 409 (the spec
 * says a duplicate is "normally" a 409; some services replay instead).
 */
import { ok, type Ctx, type Reply } from '../router';
import { payinView } from './payins/record';
import { transferView } from './payouts/view';

export function duplicateReplay(ctx: Ctx, businessId: string, reference: string): Reply | undefined {
	if (!ctx.sb.profiles.has('duplicate-returns-existing')) return undefined;
	const state = ctx.sb.state;
	const hit = state.references.get(state.refKey(businessId, reference));
	if (!hit) return undefined;
	if (hit.kind === 'transfer') {
		const t = state.transfers.get(hit.onusReference);
		if (t) return ok(transferView(t, ctx.sb.profiles), 'Successful');
	}
	if (hit.kind === 'bulk') {
		const rows = [...state.transfers.values()].filter((t) => t.bulkReference === reference && t.businessId === businessId);
		return ok({
			reference,
			businessId,
			currency: rows[0]?.currency,
			status: 'PENDING',
			totalCount: rows.length,
			totalAmount: Math.round(rows.reduce((s, t) => s + t.amount, 0) * 100) / 100,
			totalFee: Math.round(rows.reduce((s, t) => s + t.fee, 0) * 100) / 100,
			transfers: rows.map((t) => transferView(t, ctx.sb.profiles)),
		});
	}
	if (hit.kind === 'payin') {
		const p = state.payins.get(hit.onusReference);
		if (p) return ok(payinView(p), 'Successful');
	}
	return undefined;
}
