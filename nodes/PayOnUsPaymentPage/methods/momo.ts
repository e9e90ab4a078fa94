import type { IDataObject } from 'n8n-workflow';
import { listMobileMoneyNetworks, verifyMobileMoneyOtp } from '../../shared/api';
import type { PayOnUsClient } from '../../shared/clientInterface';
import { statusOf } from '../../shared/errors';
import { mobileMoneyPayin } from '../../PayOnUs/resources/payin/mobileMoneyCollection';
import * as payins from '../../shared/payins';
import { buyer, CheckoutInputError, newAttempt, nextAttempt, withAttempt } from '../checkout/input';
import { internationalPhone, phoneError, phoneHint } from '../checkout/phone';
import { attemptReference, type Attempt } from '../checkout/sealedState';
import type { CheckoutEnv, PageConfig, View } from '../checkout/types';
import { alertBox, esc, hidden, money, type RenderOptions } from '../render/parts';
import { codeView, simulateForm, waitView, type Wait } from '../render/views';
import { inPage, settle, type PayOnUsCaller } from '../service';
import type { MethodStep, PageMethod } from './types';

/**
 * Mobile money: a prompt on the customer's phone (a mobile money
 * collection), with an OTP first on some networks. Offered where the
 * service lists networks for the currency.
 */

interface Network {
	code: string;
	name: string;
	currency?: string;
	otpRequired?: boolean;
	initiatingCodeRequired?: boolean;
}

/** The payin: the prompt sent. */
export async function mobileMoneyCollection(caller: PayOnUsCaller, body: payins.PayinBody<typeof mobileMoneyPayin>): Promise<IDataObject> {
	return await inPage(payins.postPayin(caller.client, mobileMoneyPayin, body));
}

const prompt: MethodStep = async (env, state, form, _latest, kit) => {
	if (!env.config.methods.includes('momo')) throw new CheckoutInputError('Mobile money is not offered on this page');
	const network = (env.config.networks ?? []).find((x) => x.code === form.network);
	if (!network) throw new CheckoutInputError('Network: choose your mobile money network');
	const phone = internationalPhone(form.phone ?? state.ph, env.config.currency);
	if (!phone) {
		const why = phoneError('Mobile money number', env.config.currency);
		throw new CheckoutInputError(why, { phone: why });
	}
	const n = nextAttempt(state);
	// The number and network prompted, shown while the page waits (and for a resend).
	const attempt: Attempt = { ...newAttempt(env, state, n, 'momo'), ph: phone, net: network.code };
	const result = await kit.createOnce(env, state, attempt, async () =>
		await mobileMoneyCollection(env, {
			businessId: env.config.businessId,
			momoNetwork: network.code,
			amount: state.amt as number,
			reference: attemptReference(state, n),
			narration: env.config.narration,
			customer: { ...buyer(state), phone },
		}),
	);
	if ('adopted' in result) return result.adopted;
	attempt.s = result.created.otpRequired === true ? 'momoOtp' : 'momoWait';
	return await kit.current(env, withAttempt({ ...state, m: 'momo' }, attempt));
};

/** The network's OTP, sent once; then the page waits for the approval on the phone. */
const otp: MethodStep = async (env, state, form, latest, kit) => {
	const attempt = latest?.attempt;
	if (!attempt || attempt.m !== 'momo' || attempt.s !== 'momoOtp' || !attempt.r) return kit.nextView(env, state, latest);
	const code = String(form.authData ?? '').trim();
	if (!/^\d{4,8}$/.test(code)) throw new CheckoutInputError('Code: enter the code sent to your phone');
	const settled = await settle(verifyMobileMoneyOtp(env.client, { onusReference: attempt.r, otp: code, businessId: env.config.businessId }));
	if (!settled.ok) {
		if (statusOf(settled.error) === 400)
			return await kit.current(env, state, 'That code was not accepted. Check it and try again.', 400);
		if (statusOf(settled.error) !== 409) throw settled.error;
	}
	return await kit.current(env, withAttempt(state, { ...attempt, s: 'momoWait' }));
};

/**
 * TEST MODE: the sandbox's mobile money numbers that approve a prompt by
 * themselves (public-facts.md, "Sandbox test data"): Ghana MTN
 * 0240000003, Kenya M-Pesa 234700000000; in South Africa any number.
 */
const SANDBOX_APPROVING: Record<string, string> = { MTN_GH: '+233240000003', MPESA_KE: '+234700000000' };

/** Where "Simulate the customer paying" sends a prompt: the open attempt's network when it has an approving number, else the page's first that has one; none: not offered. */
export function simulatedPrompt(env: Pick<CheckoutEnv, 'config'>, attempt: Attempt | undefined): { network: string; phone: string } | undefined {
	const networks = (env.config.networks ?? []).filter((n) => !n.otpRequired && !n.initiatingCodeRequired);
	const approving = (code: string): string | undefined =>
		SANDBOX_APPROVING[code] ?? (env.config.currency === 'ZAR' ? (attempt?.ph ?? '+27820000000') : undefined);
	const own = networks.find((n) => n.code === attempt?.net && approving(n.code));
	const chosen = own ?? networks.find((n) => approving(n.code));
	return chosen ? { network: chosen.code, phone: approving(chosen.code) as string } : undefined;
}

/**
 * TEST MODE only: "Simulate the customer paying" a mobile money prompt. The
 * spec has no call that pays a prompt; the sandbox approves the prompts sent
 * to its test numbers by itself, so the page sends the prompt again (a new
 * attempt, bounded like any other) to the network's approving number, and
 * waits for it as for any prompt. Outside the sandbox: the page as it is.
 */
const simulate: MethodStep = async (env, state, _form, latest, kit) => {
	const target = env.testMode ? simulatedPrompt(env, latest?.attempt) : undefined;
	if (!target || latest?.attempt.m !== 'momo') return kit.nextView(env, state, latest);
	return await prompt(env, state, target, latest, kit);
};

/** The wait: the number and network prompted, how long a prompt lasts, and a resend (bounded per phone). */
function promptWait(o: RenderOptions, view: View): Wait {
	const s = view.state;
	const a = view.attempt;
	const network = (o.config.networks ?? []).find((n) => n.code === a?.net)?.name ?? a?.net ?? 'your network';
	const number = a?.ph ?? s.ph ?? '';
	const target = simulatedPrompt(o, view.attempt);
	return {
		title: 'Approve on your phone',
		lines: [
			`<p>We sent a payment request for <b>${esc(money(s.amt, s.cur))}</b> to <b id="momo-number" class="nowrap">${esc(number)}</b> (<span id="momo-network">${esc(network)}</span>). Approve it on that phone with your mobile money PIN.</p>`,
			'<p class="muted">A request stays on the phone for a short time only (the network decides, often about a minute). If it did not arrive or has gone, send it again.</p>',
		],
		// TEST MODE: the prompt sent again to a sandbox number that approves it, when the page's networks have one.
		simulate: target
			? simulateForm(view.sealed, `Send the prompt again to ${target.phone}, a sandbox number that approves it by itself, as a test of your workflow.`)
			: '<p>The sandbox approves prompts to its test numbers by itself (Ghana MTN 0240000003, Kenya M-Pesa 234700000000, any South African number).</p>',
		forms: [
			a?.ph && a.net
				? `<form method="post" action="?c=${esc(view.sealed)}">${hidden(view.sealed, 'momo')}<input type="hidden" name="network" value="${esc(a.net)}"><input type="hidden" name="phone" value="${esc(a.ph)}"><button type="submit" class="secondary" id="resend">Send the request again</button></form>`
				: '',
			`<form method="post" action="?c=${esc(view.sealed)}">${hidden(view.sealed, 'method')}<button type="submit" name="method" value="momo" class="secondary">Use another number</button></form>`,
		],
	};
}

function momoForm(o: RenderOptions, view: View): string {
	const v = view.values ?? {};
	return `<h2 id="pay-h">Mobile money</h2>
${alertBox(view.message)}
<form method="post" action="?c=${esc(view.sealed)}">
${hidden(view.sealed, 'momo')}
<label for="network">Network</label><select id="network" name="network" required>${(o.config.networks ?? [])
		.map((n) => `<option value="${esc(n.code)}"${v.network === n.code ? ' selected' : ''}>${esc(n.name)}</option>`)
		.join('')}</select>
<label for="momo-phone">Mobile money number</label><input id="momo-phone" name="phone" type="tel" autocomplete="tel" required value="${esc(
		v.phone ?? view.state.ph ?? '',
	)}" aria-describedby="momo-hint"><p id="momo-hint" class="muted">${esc(phoneHint(o.config.currency))}</p>
<button type="submit">Send the payment prompt</button>
</form>`;
}

/** The currency's networks (not those needing a pre-OTP initiating code: the page cannot serve them). */
async function networksOf(getClient: () => Promise<PayOnUsClient>, currency: string): Promise<NonNullable<PageConfig['networks']>> {
	return ((await listMobileMoneyNetworks(await getClient(), { currency })) as unknown as Network[])
		.filter((n) => typeof n.code === 'string' && (n.currency === undefined || n.currency === currency))
		.filter((n) => !n.initiatingCodeRequired)
		.map((n) => ({ code: n.code, name: String(n.name ?? n.code), otpRequired: n.otpRequired === true }));
}

export const mobileMoney: PageMethod = {
	id: 'momo',
	option: { name: 'Mobile Money', description: "A prompt on the customer's phone (OTP when the network asks)" },
	label: { name: 'Mobile money', hint: 'Approve a prompt on your phone' },
	properties: [],
	needs: { what: 'mobile money', needs: 'a currency with networks' },
	offer: async ({ currency, cached, getClient, scope }) => {
		const networks = await cached(`momo|${currency}|${scope}`, async () => await networksOf(getClient, currency));
		return networks.length > 0 ? { networks } : undefined;
	},
	channel: 'MOBILE_MONEY',
	call: mobileMoneyPayin,
	accountNameIsBuyer: true,
	payin: mobileMoneyCollection,
	steps: { momo: prompt, momoOtp: otp },
	simulate,
	stepViews: { momoOtp: 'momoOtp', momoWait: 'momoWait' },
	views: {
		momoOtp: (o, view) =>
			codeView(o, view, 'momoOtp', 'Enter the code', 'Your mobile money provider sent a one-time code to your phone.', 'One-time code', false),
		momoWait: (o, view) => waitView(o, view, promptWait(o, view)),
	},
	form: (o, view) => ({ html: momoForm(o, view), scripts: [] }),
	echo: ['network'],
	adopted: () => ({ s: 'momoWait' }),
	notCompleted: 'The payment request was not approved on the phone.',
};
