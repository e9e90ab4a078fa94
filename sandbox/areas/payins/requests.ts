/** Payment requests of every channel: the status query of one payin and the filtered, paged list. */
import { ApiError } from '../../errors';
import type { Payin } from '../../records';
import { pageZeroBased } from '../../paging';
import { ok, type Ctx } from '../../router';
import { fail, qDate, qEnum, qRequired } from '../../validate';
import { payinView } from './record';

export function getPayment(ctx: Ctx) {
	const { state } = ctx.sb;
	const business = state.ownedBusiness(ctx.params.businessId, ctx.auth!.merchantId);
	const onusReference = qRequired(ctx.query, 'onusReference');
	const p = state.payins.get(onusReference);
	if (!p || p.businessId !== business.id) {
		throw new ApiError(404, `Payment request ${onusReference} not found for business ${business.id}`, [`onusReference: not found`]);
	}
	return ok(payinView(p));
}

export function listPayments(ctx: Ctx) {
	const { state } = ctx.sb;
	const q = ctx.query;
	const merchantId = ctx.auth!.merchantId;
	const status = qEnum(q, 'status', ['PROCESSING', 'PENDING', 'SUCCESSFUL', 'FAILED']);
	const businessId = q.get('businessId') || undefined;
	if (businessId) state.ownedBusiness(businessId, merchantId);
	const ref = q.get('reference') || undefined;
	const onus = q.get('onusReference') || undefined;
	const from = qDate(q, 'fromDate');
	const to = qDate(q, 'toDate');
	if (from !== undefined && to !== undefined && from > to) fail('fromDate', 'must not be after toDate');
	let candidates: Payin[];
	if (onus) {
		const p = state.payins.get(onus);
		candidates = p ? [p] : [];
	} else if (ref && businessId && state.references.get(state.refKey(businessId, ref))?.kind === 'payin') {
		const p = state.payins.get(state.references.get(state.refKey(businessId, ref))!.onusReference);
		candidates = p ? [p] : [];
	} else {
		candidates = [...state.payins.values()].reverse();
	}
	const toEnd = to === undefined ? undefined : to + 86_400_000;
	const items = candidates.filter(
		(p) =>
			state.businesses.get(p.businessId)?.merchantId === merchantId &&
			(!status || p.paymentStatus === status) &&
			(!businessId || p.businessId === businessId) &&
			(!ref || p.reference === ref) &&
			(from === undefined || p._createdMs >= from) &&
			(toEnd === undefined || p._createdMs < toEnd),
	);
	return ok(pageZeroBased(items, q, payinView, ctx.sb.profiles));
}
