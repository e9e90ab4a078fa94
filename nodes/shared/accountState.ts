import type { IDataObject } from 'n8n-workflow';

/**
 * Issue 38, point 1: a service error whose cause is the state of an account,
 * not a field of the request. The wallet's balance is too low, the wallet of
 * the currency is not enabled, payouts are switched off for it, the business
 * is not active, card tokenization is not enabled, this server's IP address
 * is not whitelisted, a limit of the account is reached, the stored card
 * expired or was deleted, the business is not on the card gateway, the
 * payment or transfer is already in a state that refuses the call. Such an
 * error is titled with the cause (and the numbers the service gave, amounts
 * grouped by thousands), never as "Amount ... is invalid": the field it
 * touches is fine. errors/titles.ts summarizeHttpError asks this first; a field is
 * named only when no state is recognised.
 *
 * The spec shows no error body nor error codes, so a state is recognised from
 * the service's words (the envelope's message and its `errors` entries),
 * whatever the status (the wallet-not-found status is not stated).
 */
export interface AccountState {
	/** What is in that state, for tests and readers. */
	kind:
		| 'insufficientBalance'
		| 'walletNotEnabled'
		| 'payoutsSwitchedOff'
		| 'walletInactive'
		| 'businessInactive'
		| 'tokenizationNotEnabled'
		| 'ipNotWhitelisted'
		| 'limitReached'
		| 'notOnCardGateway'
		| 'cardExpired'
		| 'cardDeleted'
		| 'alreadyFinal';
	/** The error's title: the cause first, at most 12 words. */
	title: string;
	/** One line on what to do (goes first in the description). */
	todo: string;
}

export interface StateContext {
	/** The operation's subject, e.g. "transfer" (format.ts subjectOfPath). */
	subject: string;
	/** The request's fields. */
	params?: IDataObject;
}

const MAX_WORDS = 12;

function words(text: string): number {
	return text.split(/\s+/).filter((w) => w !== '').length;
}

function text(params: IDataObject | undefined, key: string): string | undefined {
	const v = params?.[key];
	if (typeof v === 'string' && v.trim() !== '') return v.trim().slice(0, 40);
	return undefined;
}

/**
 * Amounts in the service's words grouped by thousands, as a person reads
 * them: "10029747.87" -> "10,029,747.87". Only plain numbers of 4 or more
 * integer digits not starting with 0 and not part of a word, reference,
 * date or account (no letter, dot, dash or digit around them) change;
 * the digits themselves never do.
 */
export function groupAmounts(said: string): string {
	return said.replace(/(?<![\w.,-])([1-9]\d{3,})(\.\d+)?(?![\w,-]|\.\d)/g, (_, whole: string, fraction: string | undefined) => {
		return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (fraction ?? '');
	});
}

function capitalized(t: string): string {
	return t.charAt(0).toUpperCase() + t.slice(1);
}

/** The part of the service's words that says it (a `field: words` entry loses its key), as a title when short enough. */
function ownWords(parts: string[], test: RegExp): string | undefined {
	const part = parts.find((p) => test.test(p));
	if (!part) return undefined;
	// A `field: words` entry reads without its key (the field is not the cause).
	const t = capitalized(groupAmounts(part.trim().replace(/^[A-Za-z][\w.]*:\s+/, '').replace(/\.$/, '')));
	return words(t) <= MAX_WORDS && !/\/api\//.test(t) ? t : undefined;
}

/** A size limit on text is a field's rule, not an account's limit. */
const TEXT_RULE = /\b(characters?|length|digits?|long)\b/i;

const RULES: Array<{ kind: AccountState['kind']; test: RegExp; unless?: RegExp }> = [
	{ kind: 'insufficientBalance', test: /\binsufficient\b[^;]*\b(balance|funds)\b|\bINSUFFICIENT_FUNDS\b|\bnot enough (balance|funds)\b/i },
	{ kind: 'ipNotWhitelisted', test: /\bwhite-?list|\bIP\b[^;]*\bnot (allowed|permitted|authori[sz]ed)\b/i },
	{ kind: 'tokenizationNotEnabled', test: /\btokeni[sz]ation\b[^;]*\bnot enabled\b|\bnot enabled\b[^;]*\btokeni[sz]ation\b/i },
	{ kind: 'payoutsSwitchedOff', test: /\bpayouts?\b[^;]*\b(not allowed|disabled|not enabled|switched off|blocked)\b/i },
	{ kind: 'walletNotEnabled', test: /\bwallet not found\b|\bno [A-Z]{3} wallet\b|\bwallet\b[^;]*\bnot enabled\b/i },
	{ kind: 'walletInactive', test: /\bwallet\b[^;]*\b(inactive|not active|deactivated|suspended|frozen|blocked|disabled)\b/i },
	{ kind: 'businessInactive', test: /\bbusiness\b[^;]*\b(inactive|not active|deactivated|suspended|blocked|disabled)\b/i },
	{ kind: 'notOnCardGateway', test: /\bnot profiled\b|\bcard gateway\b/i },
	{ kind: 'cardExpired', test: /\b(card )?token\b[^;]*\bexpired\b/i },
	{ kind: 'cardDeleted', test: /\b(card )?token\b[^;]*\bdeleted\b/i },
	{
		kind: 'limitReached',
		test: /\b(exceeds?|exceeded|above|over)\b[^;]*\b(limit|max\w*|maximum)\b|\blimit\b[^;]*\b(reached|exceeded)\b|\b(daily|monthly|transaction|transfer|payout) limit\b/i,
		unless: TEXT_RULE,
	},
	{
		kind: 'alreadyFinal',
		test: /\b(is|was) already (SUCCESSFUL|FAILED|PROCESSING|PENDING|COMPLETED|EXPIRED|CANCELLED|fully refunded)\b|\bis not (awaiting|waiting)\b|\bcannot be (used|reused)\b/i,
		unless: /\bduplicate\b|\breference\b[^;]*\balready used\b/i,
	},
];

/** The state of an account the service's words name, or undefined (then the error is about a field, or plain). */
export function accountState(said: string | undefined, ctx: StateContext): AccountState | undefined {
	if (!said) return undefined;
	const parts = said.split('; ');
	const rule = RULES.find((r) => parts.some((p) => r.test.test(p) && !(r.unless?.test(p) ?? false)));
	if (!rule) return undefined;
	const own = (test: RegExp) => ownWords(parts, test);
	const currency = text(ctx.params, 'currency') ?? /(?<![\w-])(?!API|OTP|PIN)([A-Z]{3})(?![\w-])/.exec(said)?.[1];
	const cur = currency ?? 'the';
	const business = text(ctx.params, 'businessId');
	const ofBusiness = business ? ` of business ${business}` : '';
	const forBusiness = business ? ` for business "${business}"` : ' for this business';
	const card = text(ctx.params, 'cardTokenId');
	const storedCard = card ? `Stored card "${card}"` : `The stored card of this ${ctx.subject}`;
	const dashboard = 'on the PayOnUs dashboard (Account, Wallet) for this environment';
	switch (rule.kind) {
		case 'insufficientBalance':
			return {
				kind: rule.kind,
				title: own(rule.test) ?? `Insufficient ${currency ?? ''} wallet balance for this ${ctx.subject}`.replace(/\s+/g, ' '),
				todo: `Check the ${cur} wallet${ofBusiness}: add funds or pay less (the amount plus the fee must be available), then run the item again.`,
			};
		case 'walletNotEnabled':
			return {
				kind: rule.kind,
				title: currency ? `${currency} wallet not found${forBusiness}` : `Wallet not found${forBusiness}`,
				todo: `Enable the ${cur} wallet${ofBusiness} ${dashboard}, or pay in a currency it has.`,
			};
		case 'payoutsSwitchedOff':
			return {
				kind: rule.kind,
				title: `Payouts are switched off for the ${cur} wallet${ofBusiness}`,
				todo: `Check the ${cur} wallet${ofBusiness} ${dashboard}: it must be active and allow payouts.`,
			};
		case 'walletInactive':
			return {
				kind: rule.kind,
				title: `The ${cur} wallet${ofBusiness} is not active`,
				todo: `Check the ${cur} wallet${ofBusiness} ${dashboard}: it must be active.`,
			};
		case 'businessInactive':
			return {
				kind: rule.kind,
				title: business ? `Business "${business}" is not active in PayOnUs` : 'The business is not active in PayOnUs',
				todo: 'Check the business on the PayOnUs dashboard or with PayOnUs support: it must be active in this environment.',
			};
		case 'tokenizationNotEnabled':
			return {
				kind: rule.kind,
				title: `Card tokenization is not enabled${forBusiness}`,
				todo: 'Check with PayOnUs that card tokenization is enabled for the business in this environment.',
			};
		case 'ipNotWhitelisted':
			return {
				kind: rule.kind,
				title: "This n8n server's IP address is not whitelisted at PayOnUs",
				todo: "Check the IP whitelist on the PayOnUs dashboard for this environment: add this n8n server's outbound IP address.",
			};
		case 'limitReached':
			return {
				kind: rule.kind,
				title: own(rule.test) ?? `The ${ctx.subject} is over a limit of the account`,
				todo: 'Check the limits of the wallet and business with PayOnUs: pay less per transaction or ask for a higher limit.',
			};
		case 'notOnCardGateway':
			return {
				kind: rule.kind,
				title: business ? `Business "${business}" cannot take card payments yet` : 'The business cannot take card payments yet',
				todo: 'Check with PayOnUs that the business is profiled on the NGN card gateway (production only).',
			};
		case 'cardExpired':
			return {
				kind: rule.kind,
				title: `${storedCard} expired`,
				todo: 'Store the card again through a card tokenization link, then charge the new card token.',
			};
		case 'cardDeleted':
			return {
				kind: rule.kind,
				title: `${storedCard} was deleted`,
				todo: 'Store the card again through a card tokenization link, then charge the new card token.',
			};
		case 'alreadyFinal':
			return {
				kind: rule.kind,
				title: own(rule.test) ?? `The ${ctx.subject} is no longer in a state that allows this`,
				todo: 'Check its current status (Get Payment or Get Transfer) before doing anything else.',
			};
	}
}
