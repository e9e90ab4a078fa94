import type { IDataObject } from 'n8n-workflow';
import { dynamicAccount } from '../../PayOnUs/resources/payin/createDynamicAccount';
import * as payins from '../../shared/payins';
import { buyer, newAttempt, nextAttempt, PENDING, withAttempt } from '../checkout/input';
import { attemptReference, type Attempt } from '../checkout/sealedState';
import { alertBox, checkForm, esc, expiryText, hidden, layoutBody, money, pollBlock, type RenderOptions } from '../render/parts';
import { deadline, renderedAt, simulateForm, testBox, wholeWords } from '../render/views';
import { inPage, type PayOnUsCaller } from '../service';
import type { MethodStep, MethodView, PageMethod } from './types';

/** Bank transfer (NGN): a one-time account to pay into (a dynamic account); the page then waits for the transfer. */

/** The payin: a dynamic account for this attempt. */
export async function createDynamicAccount(caller: PayOnUsCaller, body: payins.PayinBody<typeof dynamicAccount>): Promise<IDataObject> {
	return await inPage(payins.postPayin(caller.client, dynamicAccount, body));
}

function accountOf(data: IDataObject): NonNullable<Attempt['acct']> {
	return { no: String(data.accountNumber ?? ''), bank: String(data.bankName ?? ''), name: String(data.accountName ?? '') };
}

/** Chosen: its account at once (no form of its own). */
const openAccount: MethodStep = async (env, state, _form, _latest, kit) => {
	const n = nextAttempt(state);
	const attempt: Attempt = { ...newAttempt(env, state, n, 'bank'), s: 'bank' };
	const result = await kit.createOnce(env, state, attempt, async () =>
		await createDynamicAccount(env, {
			businessId: env.config.businessId,
			amount: state.amt as number,
			reference: attemptReference(state, n),
			customer: buyer(state),
		}),
	);
	if ('adopted' in result) return result.adopted;
	attempt.acct = accountOf(result.created);
	return await kit.current(env, withAttempt(state, attempt));
};

/**
 * TEST MODE only: "Simulate the customer paying" the open bank transfer
 * (the spec's sandbox simulate endpoint, the call the PayOnUs node's Simulate
 * Payment operation makes); the payin's status, read next, says what happened.
 * Outside the sandbox, or without an open bank transfer: the page as it is.
 */
const simulate: MethodStep = async (env, state, _form, latest, kit) => {
	const attempt = latest?.attempt;
	const open = attempt?.m === 'bank' && attempt.r && PENDING.has(String(latest?.record?.paymentStatus));
	if (!env.testMode || !open || !attempt.r) return kit.nextView(env, state, latest);
	await inPage(
		payins.simulatePayment(env.client, {
			onusReference: attempt.r,
			accountNumber: attempt.acct?.no ?? String(latest?.record?.accountNumber ?? ''),
			amount: state.amt as number,
			paymentStatus: 'SUCCESSFUL',
			forDynamicAccount: true,
		}),
	);
	return await kit.current(env, state);
};

/** The account to pay into, the time left, "I have paid", and (TEST MODE) the simulate form. */
const accountView: MethodView = (o: RenderOptions, view, others) => {
	const s = view.state;
	const acct = view.attempt?.acct ?? accountOf(view.record ?? {});
	return layoutBody(
		o,
		money(s.amt, s.cur),
		`<section class="card" aria-labelledby="bank-h"><h2 id="bank-h">Transfer exactly ${esc(money(s.amt, s.cur))}</h2>
${view.message ? `<div class="notice" role="status">${esc(view.message)}</div>` : ''}
<p>Send this exact amount from your banking app to the account below. It is for this payment only${
			view.record?.businessName ? `, to <b id="seller">${esc(view.record.businessName)}</b>` : ''
		}.</p>
${deadline(s.exp, renderedAt(o))}
<dl><dt>Account number</dt><dd class="big"><span id="account-number">${esc(acct.no)}</span> <button type="button" class="copy secondary" data-copy="account-number" hidden>Copy<span class="sr"> account number</span></button></dd><dt>Bank</dt><dd id="bank-name">${esc(acct.bank)}</dd><dt>Account name</dt><dd class="words" id="account-name">${wholeWords(acct.name)}</dd><dt>Amount</dt><dd>${esc(money(s.amt, s.cur))}</dd><dt>Pay before</dt><dd><time datetime="${new Date(s.exp).toISOString()}" data-local>${esc(expiryText(s.exp))}</time></dd></dl><p id="copy-status" class="muted" aria-live="polite"></p>
${pollBlock(view.sealed)}
${checkForm(view.sealed, 'I have paid')}
${o.testMode ? testBox(view, simulateForm(view.sealed, 'Pretend the customer paid this account in full, as a test of your workflow.')) : ''}
${others}
</section>`,
	);
};

export const bankTransfer: PageMethod = {
	id: 'bank',
	option: { name: 'Bank Transfer', description: 'A one-time NGN account for this checkout' },
	label: { name: 'Bank transfer', hint: 'Transfer to a one-time account from your banking app' },
	properties: [],
	needs: { what: 'bank transfer', needs: 'NGN' },
	// dynamic accounts are NGN only
	offer: async ({ currency }) => (currency === 'NGN' ? {} : undefined),
	channel: 'BANK_TRANSFER',
	call: dynamicAccount,
	accountNameIsBuyer: false,
	payin: createDynamicAccount,
	start: openAccount,
	steps: {},
	simulate,
	stepViews: { bank: 'bank' },
	views: { bank: accountView },
	// Chosen again after another method: one button for its account.
	form: (_o, view) => ({
		html: `<h2 id="pay-h">Bank transfer</h2>${alertBox(view.message)}<form method="post" action="?c=${esc(view.sealed)}">${hidden(
			view.sealed,
			'method',
		)}<button type="submit" name="method" value="bank">Get the account details</button></form>`,
		scripts: [],
	}),
	echo: [],
	adopted: (payin) => ({ s: 'bank', acct: accountOf(payin) }),
	notCompleted: 'The payment did not go through.',
};
