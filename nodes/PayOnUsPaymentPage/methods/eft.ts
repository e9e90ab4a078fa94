import type { IDataObject } from 'n8n-workflow';
import { listEftBanks } from '../../shared/api';
import { eftPayin } from '../../PayOnUs/resources/payin/eftPayment';
import * as payins from '../../shared/payins';
import { bankPageOf, buyer, CheckoutInputError, isWebAddress, newAttempt, nextAttempt, withAttempt } from '../checkout/input';
import { attemptReference, type Attempt } from '../checkout/sealedState';
import type { View } from '../checkout/types';
import { returnUrl, view } from '../checkout/view';
import { alertBox, esc, hidden, type RenderOptions } from '../render/parts';
import { plainWait, toTheBank, waitView } from '../render/views';
import { inPage, type PayOnUsCaller } from '../service';
import type { MethodStep, PageMethod } from './types';

/** EFT (ZAR): the customer authorises the payment at their bank's page, then comes back to the page. */

/** The payin: the EFT payment, authorised at the bank's page, back to `redirectUrl`. */
export async function eftPayment(caller: PayOnUsCaller, body: payins.PayinBody<typeof eftPayin>): Promise<IDataObject> {
	return await inPage(payins.postPayin(caller.client, eftPayin, body));
}

const toTheBankPage: MethodStep = async (env, state, form, _latest, kit): Promise<View> => {
	if (!env.config.methods.includes('eft')) throw new CheckoutInputError('EFT is not offered on this page');
	const bank = (env.config.eftBanks ?? []).find((b) => b.code === form.bank);
	if (!bank) throw new CheckoutInputError('Bank: choose your bank');
	const n = nextAttempt(state);
	const attempt: Attempt = { ...newAttempt(env, state, n, 'eft'), s: 'eft' };
	const returnState = withAttempt({ ...state, m: 'eft' }, { ...attempt });
	const result = await kit.createOnce(env, state, attempt, async () =>
		await eftPayment(env, {
			amount: state.amt as number,
			reference: attemptReference(state, n),
			narration: env.config.narration,
			businessId: env.config.businessId,
			bank: bank.code,
			redirectUrl: returnUrl(env, returnState),
			customer: buyer(state),
		}),
	);
	if ('adopted' in result) return result.adopted;
	const data = result.created;
	if (isWebAddress(data.redirectUrl)) attempt.u = data.redirectUrl;
	const next = withAttempt({ ...state, m: 'eft' }, attempt);
	const url = bankPageOf(data);
	if (url) return view(env, 'eft', next, { attempt, redirect: url, record: data });
	return await kit.current(env, next);
};

function eftForm(o: RenderOptions, view: View): string {
	const v = view.values ?? {};
	return `<h2 id="pay-h">Pay by EFT</h2>
${alertBox(view.message)}
<form method="post" action="?c=${esc(view.sealed)}">
${hidden(view.sealed, 'eft')}
<label for="bank">Your bank</label><select id="bank" name="bank" required>${(o.config.eftBanks ?? [])
		.map((b) => `<option value="${esc(b.code)}"${v.bank === b.code ? ' selected' : ''}>${esc(b.name)}</option>`)
		.join('')}</select>
<p class="muted">You will authorise the payment on your bank's page, then come back here.</p>
<button type="submit">Continue to your bank</button>
</form>`;
}

/** TEST MODE: the sandbox bank's page, where the tester authorises the payment as the customer would. */
function simulateAtBank(view: View): string {
	const u = view.attempt?.u;
	return u
		? `<p>The sandbox bank's page lets you authorise the payment as the customer would; this page then shows the receipt.</p><a class="button secondary" id="simulate" href="${esc(u)}">Simulate the customer paying</a>`
		: '';
}

export const eft: PageMethod = {
	id: 'eft',
	option: { name: 'EFT', description: 'ZAR: the customer authorises at their bank' },
	label: { name: 'EFT', hint: 'Pay from your bank account at your bank' },
	properties: [],
	needs: { what: 'EFT', needs: 'ZAR' },
	offer: async ({ currency, cached, getClient, scope }) => {
		if (currency !== 'ZAR') return undefined;
		const eftBanks = await cached(`eft|${scope}`, async () =>
			(await listEftBanks(await getClient()))
				.filter((b) => typeof b.code === 'string')
				.map((b) => ({ code: String(b.code), name: String(b.name ?? b.code) })),
		);
		return eftBanks.length > 0 ? { eftBanks } : undefined;
	},
	channel: 'EFT',
	call: eftPayin,
	accountNameIsBuyer: true,
	payin: eftPayment,
	steps: { eft: toTheBankPage },
	stepViews: { eft: 'eft' },
	views: {
		eft: (o, view) =>
			waitView(o, view, {
				...plainWait('Authorise at your bank', "Authorise the payment on your bank's page, then come back here.", toTheBank(view)),
				simulate: simulateAtBank(view),
			}),
	},
	form: (o, view) => ({ html: eftForm(o, view), scripts: [] }),
	echo: ['bank'],
	adopted: () => ({ s: 'eft' }),
	notCompleted: 'The payment did not go through.',
};
