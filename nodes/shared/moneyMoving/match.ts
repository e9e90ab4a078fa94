import type { IDataObject } from 'n8n-workflow';

/**
 * 4. Matching: a record of the service counts as the result of a request
 * only when it matches the request (its reference, checked by ./proof.ts;
 * business where the record carries one, amount, currency, beneficiary
 * account or phone, compared here). Applied by
 * ./send.ts (through the `check` that ./lookup.ts builds) to the call's own
 * answer and to every record a lookup finds.
 */

export interface Expected {
	reference: string;
	businessId: string;
	amount: number;
	currency?: string;
	/** Beneficiary account number (bank, EFT) or phone (mobile money payout). */
	beneficiaryAccount?: string;
	/** Customer phone of a mobile money collection. */
	customerPhone?: string;
}

/** Record fields holding the merchant reference. */
export const REFERENCE_KEYS = ['merchantReference', 'reference'];

function num(v: unknown): number | undefined {
	const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
	return Number.isFinite(n) ? n : undefined;
}

/** A non-blank text, trimmed (else undefined). */
export function text(v: unknown): string | undefined {
	return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

const digits = (s: string) => s.replace(/\D/g, '');

/** Phone numbers match when their digits do (a leading + or spacing is not a difference). */
export function samePhone(a: string, b: string): boolean {
	return digits(a) !== '' && digits(a) === digits(b);
}

/** Account numbers match exactly once spacing is ignored; phone-like values by their digits. */
function sameAccount(a: string, b: string): boolean {
	const x = a.replace(/\s+/g, '');
	const y = b.replace(/\s+/g, '');
	return x === y || (/^\+?[\d\s-]+$/.test(a) && /^\+?[\d\s-]+$/.test(b) && samePhone(a, b));
}

/**
 * Differences between the values a service record shows and the request
 * (empty: none of them differs): business, amount, currency, beneficiary
 * account, phone. The reference is not compared here: it is the proof's
 * (./proof.ts, unproven(), which also says which fields a record must show:
 * an absent field is never agreement). The same for the call's own answer
 * and a record found by lookup.
 */
export function compare(expected: Expected, record: IDataObject): string[] {
	const out: string[] = [];
	const business = text(record.businessId);
	if (business !== undefined && business !== expected.businessId) out.push(`business ${business} (requested ${expected.businessId})`);
	const amount = num(record.amount);
	if (amount !== undefined && Math.abs(amount - expected.amount) > 0.005) out.push(`amount ${amount} (requested ${expected.amount})`);
	const currency = text(record.currency);
	if (expected.currency !== undefined && currency !== undefined && currency.toUpperCase() !== expected.currency.toUpperCase()) {
		out.push(`currency ${currency} (requested ${expected.currency})`);
	}
	const account = text(record.beneficiaryAccountNumber);
	if (expected.beneficiaryAccount !== undefined && account !== undefined && !sameAccount(account, expected.beneficiaryAccount)) {
		out.push(`beneficiary account ${account} (requested ${expected.beneficiaryAccount})`);
	}
	const phone = text(record.mobileNumber);
	if (expected.customerPhone !== undefined && phone !== undefined && !samePhone(phone, expected.customerPhone)) {
		out.push(`phone ${phone} (requested ${expected.customerPhone})`);
	}
	return out;
}

/** A record in a few words: "ONUS-TRNF-... NGN 100 to 0123456789, SUCCESSFUL, business BUS-2001". */
export function describeRecord(record: IDataObject): string {
	const parts: string[] = [];
	const onus = text(record.onusReference);
	if (onus) parts.push(onus);
	const amount = num(record.amount);
	if (amount !== undefined) parts.push(`${text(record.currency) ?? ''} ${amount}`.trim());
	const to = text(record.beneficiaryAccountNumber) ?? text(record.mobileNumber);
	if (to) parts.push(`to ${to}`);
	const status = text(record.paymentStatus) ?? text(record.status);
	if (status) parts.push(status);
	const business = text(record.businessId);
	if (business) parts.push(`business ${business}`);
	const created = text(record.createdDate);
	if (created) parts.push(`created ${created}`);
	return parts.length > 0 ? parts.join(', ') : 'record without details';
}

/** The request in words, for messages. */
export function describeExpected(e: Expected): string {
	const to = e.beneficiaryAccount ? ` to ${e.beneficiaryAccount}` : e.customerPhone ? ` from ${e.customerPhone}` : '';
	return `${e.currency ?? ''} ${e.amount}${to}, business ${e.businessId}`.trim();
}
