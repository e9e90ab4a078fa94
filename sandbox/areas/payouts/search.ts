/** The transfer search (GET /api/v1/transfer-requests), single and bulk rows, with the profile that ignores undocumented filters. */
import { ApiError } from '../../errors';
import { pageFromOne } from '../../paging';
import type { Transfer } from '../../records';
import { ok, type Ctx } from '../../router';
import { fail, qDate, qEnum, qRequired } from '../../validate';
import { TRANSFER_TYPES } from './rules';
import { transferView } from './view';

export function searchTransfers(ctx: Ctx) {
	const { state } = ctx.sb;
	const q = ctx.query;
	const merchantId = qRequired(q, 'merchantId');
	if (!state.merchants.has(merchantId)) throw new ApiError(404, `Merchant ${merchantId} not found`, [`merchantId: ${merchantId} not found`]);
	if (merchantId !== ctx.auth!.merchantId) throw new ApiError(403, 'Insufficient authority for this merchant', [`merchantId: not your merchant`]);
	const onus = q.get('onusReference') || undefined;
	// Profile ignores-undocumented-filters: only merchantId and onusReference are documented.
	const honour = !ctx.sb.profiles.has('ignores-undocumented-filters');
	const ref = honour ? q.get('merchantReference') || q.get('reference') || undefined : undefined;
	const businessId = honour ? q.get('businessId') || undefined : undefined;
	if (businessId) state.ownedBusiness(businessId, merchantId);
	const status = honour ? qEnum(q, 'status', ['PENDING', 'SUCCESSFUL', 'FAILED']) ?? qEnum(q, 'paymentStatus', ['PENDING', 'SUCCESSFUL', 'FAILED']) : undefined;
	const transferType = honour ? qEnum(q, 'transferType', [...TRANSFER_TYPES]) : undefined;
	const bulkReference = honour ? q.get('bulkReference') || undefined : undefined;
	const from = honour ? qDate(q, 'fromDate') : undefined;
	const to = honour ? qDate(q, 'toDate') : undefined;
	if (from !== undefined && to !== undefined && from > to) fail('fromDate', 'must not be after toDate');
	let candidates: Transfer[];
	if (onus) {
		const t = state.transfers.get(onus);
		candidates = t ? [t] : [];
	} else if (ref && businessId) {
		const hit = state.references.get(state.refKey(businessId, ref));
		const t = hit?.kind === 'transfer' ? state.transfers.get(hit.onusReference) : undefined;
		candidates = t ? [t] : [];
	} else {
		candidates = [...state.transfers.values()].reverse();
	}
	const toEnd = to === undefined ? undefined : to + 86_400_000;
	const items = candidates.filter(
		(t) =>
			t.merchantId === merchantId &&
			(!ref || t.merchantReference === ref) &&
			(!businessId || t.businessId === businessId) &&
			(!status || t.paymentStatus === status) &&
			(!transferType || t.transferType === transferType) &&
			(!bulkReference || t.bulkReference === bulkReference) &&
			(from === undefined || t._createdMs >= from) &&
			(toEnd === undefined || t._createdMs < toEnd),
	);
	return ok(pageFromOne(items, q, (t) => transferView(t, ctx.sb.profiles), ctx.sb.profiles));
}
