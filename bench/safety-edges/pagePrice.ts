/**
 * Safety-edges area "page-price" (issue 36 point 2): a Payment Page tab
 * opened before the merchant changed the price, against the local sandbox
 * through the real transport. Counts the payins created at the old price
 * (money that would move at a price the page no longer asks: goal 0) and
 * whether money already paid at the old price is still emitted (a blind
 * window when not: goal 0).
 */
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { newCheckoutId } from '../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { bankPage } from './pageFixture';
import { row, type SafetyArea, type SafetyRow } from './types';

const NET = 'Payment page price now';

async function rows(sb: SandboxHandle): Promise<SafetyRow[]> {
	const { checkout, config, emitted } = await bankPage(sb);
	const payinsOf = (id: string) => [...sb.state.payins.values()].filter((p) => String(p.reference).startsWith(`PP-${id}-`));
	const out: SafetyRow[] = [];

	// A tab on the form, then on an open account, both from before the change; a third checkout paid at the old price.
	const onForm = checkout.fresh(newCheckoutId());
	const onAccount = await checkout.step(checkout.fresh(newCheckoutId()).state, 'start', { email: 'account@example.com' });
	const paid = await checkout.step(checkout.fresh(newCheckoutId()).state, 'start', { email: 'paid@example.com' });
	const paidPayin = sb.state.payins.get(String(paid.attempt?.r));
	if (!paidPayin) throw new Error('no payin for the paid checkout');
	Object.assign(paidPayin, { paymentStatus: 'SUCCESSFUL', amountPaid: 5000 });
	config.amount = 6000;

	const formAfter = await checkout.step(onForm.state, 'start', { email: 'form@example.com' });
	const atOld = payinsOf(onForm.state.id).filter((p) => p.amount === 5000).length;
	out.push(
		row(NET, 'start form opened at NGN 5,000, sent after the price became 6,000', 'starts again, payins at 5,000: 0', `${formAfter.kind === 'start' ? 'starts again' : formAfter.kind}, payins at 5,000: ${atOld}`, {
			moneyMoved: atOld,
		}),
	);
	const before = payinsOf(onAccount.state.id).length;
	const accountAfter = await checkout.step(onAccount.state, 'method', { method: 'bank' });
	const created = payinsOf(onAccount.state.id).length - before;
	out.push(
		row(NET, 'open account at NGN 5,000, a new account asked after the price became 6,000', 'starts again, payins created: 0', `${accountAfter.kind === 'start' ? 'starts again' : accountAfter.kind}, payins created: ${created}`, {
			moneyMoved: created,
		}),
	);
	const receipt = await checkout.show(paid.state);
	const marked = emitted.filter((i) => i.pagePriceChanged === true && i.amount === 5000).length;
	out.push(
		row(NET, 'paid at NGN 5,000 before the change, first seen after it', 'receipt, Paid 1 (pagePriceChanged)', `${receipt.kind === 'paid' ? 'receipt' : receipt.kind}, Paid ${emitted.length}${marked === 1 ? ' (pagePriceChanged)' : ''}`, {
			blindWindows: emitted.length === 0 ? 1 : 0,
		}),
	);
	return out;
}

export const area: SafetyArea = {
	name: 'page-price',
	needsN8n: false,
	async run(): Promise<SafetyRow[]> {
		const sb = await startSandbox({ port: 0 });
		try {
			return await rows(sb);
		} finally {
			await sb.stop();
		}
	},
};
