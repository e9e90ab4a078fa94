import type { IDataObject } from 'n8n-workflow';
import { type Expected, REFERENCE_KEYS, text } from './match';

/**
 * 2b. Rule 1 of docs/reliability.md, "a success is proven, never inferred":
 * what proves that a record (the call's own answer, or a record found by
 * lookup) IS the money movement a call asked for. ./send.ts applies it to
 * every answer and every record found; anything that does not prove the
 * movement is handled like a lost answer (looked up by reference, then
 * done, refused, or "outcome unknown"). Nothing else decides a success.
 *
 * A record proves the movement when
 * - it carries a service reference of the operation's kind
 *   (`ONUS-<TYPE>-...`, the spec's "Formats": TRNF transfers, CARD card
 *   payments, TKPY stored-card charges, MMO mobile money, EFT EFT payins,
 *   NUB dynamic accounts; a bulk batch: every row a TRNF transfer);
 * - it carries each field the spec says that record carries (the answer of
 *   the call, or the full record a lookup reads) for which the request has a
 *   value (reference, business, amount, currency, beneficiary account,
 *   customer phone): an absent field is never agreement;
 * - the call's `check` (./match.ts, or the bulk rows) finds no difference.
 *
 * Each operation's proof is declared once, in the operation's file, with the
 * rest of what makes its call move money (`moneyCall`, ./call.ts); the
 * request carries it (MoneyMovingOptions.proof), so no money-moving call is
 * sent without one.
 */

/** Fields of a record that identify a movement. */
export type ProofField = 'reference' | 'businessId' | 'amount' | 'currency' | 'beneficiaryAccount' | 'customerPhone';

export interface Proof {
	/** What the record is called in messages. */
	kind: string;
	/** TYPE codes of the service reference (`ONUS-<TYPE>-...`); undefined: any TYPE (a record the spec does not show). */
	types?: string[];
	/** Fields the call's own answer carries per the spec. */
	answer: ProofField[];
	/** Fields a record found by lookup carries per the spec (the list's record). */
	record: ProofField[];
	/** A batch: `transfers`, one per row, each with a service reference of `types` (the rows are compared by `check`). */
	batch?: boolean;
}

/** Fields of a transfer record found by lookup (the list's record). */
export const TRANSFER_RECORD: ProofField[] = ['reference', 'amount', 'currency', 'beneficiaryAccount'];
/** Fields of a payin record found by lookup (the payment requests' record). */
export const PAYIN_RECORD: ProofField[] = ['reference', 'businessId', 'amount', 'currency', 'customerPhone'];

/** What a record must show: the request's reference, and the values it carries. */
export interface ProofRequest {
	reference: string;
	expected?: Partial<Omit<Expected, 'reference'>>;
}

/** True when `value` is a service reference of one of `types` (any TYPE when undefined). */
export function isServiceReference(value: unknown, types?: string[]): boolean {
	const m = /^[A-Za-z]+-([A-Za-z]+)-\S+$/.exec(text(value) ?? '');
	return !!m && (types === undefined || types.includes(m[1].toUpperCase()));
}

function serviceReferenceProblem(record: IDataObject, proof: Proof): string | undefined {
	const onus = text(record.onusReference);
	if (isServiceReference(onus, proof.types)) return undefined;
	const kind = proof.types ? `${proof.types.map((t) => `ONUS-${t}-...`).join(' or ')} ` : '';
	return onus === undefined ? `no ${kind}service reference` : `service reference ${onus} is not a ${kind}reference`.replace('  ', ' ');
}

const SHOWN: Record<ProofField, (r: IDataObject) => boolean> = {
	reference: (r) => REFERENCE_KEYS.some((k) => text(r[k]) !== undefined),
	businessId: (r) => text(r.businessId) !== undefined,
	amount: (r) => r.amount !== undefined && r.amount !== null && r.amount !== '' && Number.isFinite(Number(r.amount)),
	currency: (r) => text(r.currency) !== undefined,
	beneficiaryAccount: (r) => text(r.beneficiaryAccountNumber) !== undefined,
	customerPhone: (r) => text(r.mobileNumber) !== undefined,
};

const ASKED: Record<ProofField, (req: ProofRequest) => unknown> = {
	reference: (req) => req.reference,
	businessId: (req) => req.expected?.businessId,
	amount: (req) => req.expected?.amount,
	currency: (req) => req.expected?.currency,
	beneficiaryAccount: (req) => req.expected?.beneficiaryAccount,
	customerPhone: (req) => req.expected?.customerPhone,
};

const NAMES: Record<ProofField, string> = {
	reference: 'merchant reference',
	businessId: 'business',
	amount: 'amount',
	currency: 'currency',
	beneficiaryAccount: 'beneficiary account',
	customerPhone: 'customer phone',
};

/**
 * What keeps `record` from proving the movement `request` asked for (empty:
 * it proves it): a missing or foreign service reference, a field the record
 * carries per the spec that it does not show, a reference that is not the
 * request's. (Values of the other fields are compared by the call's `check`.)
 */
export function unproven(proof: Proof | undefined, record: unknown, request: ProofRequest, mode: 'answer' | 'record'): string[] {
	if (!proof) return ['no proof is declared for this call'];
	if (!record || typeof record !== 'object' || Array.isArray(record)) return ['no record in the answer'];
	const r = record as IDataObject;
	if (Object.keys(r).length === 0) return ['an empty answer'];
	const out: string[] = [];
	if (proof.batch) {
		const rows = Array.isArray(r.transfers) ? (r.transfers as IDataObject[]) : [];
		if (rows.length === 0) out.push('no transfers shown');
		rows.forEach((t, i) => {
			const problem = t && typeof t === 'object' ? serviceReferenceProblem(t, proof) : 'no record';
			if (problem) out.push(`transfer ${i + 1}: ${problem}`);
		});
		return out;
	}
	const problem = serviceReferenceProblem(r, proof);
	if (problem) out.push(problem);
	for (const field of mode === 'answer' ? proof.answer : proof.record) {
		if (ASKED[field](request) !== undefined && !SHOWN[field](r)) out.push(`${NAMES[field]} not shown`);
	}
	const refs = REFERENCE_KEYS.map((k) => text(r[k])).filter((v): v is string => v !== undefined);
	if (refs.length > 0 && !refs.includes(request.reference)) out.push(`reference ${refs[0]} (requested ${request.reference})`);
	return out;
}
