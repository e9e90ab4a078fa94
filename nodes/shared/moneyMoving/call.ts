import type { IDataObject } from 'n8n-workflow';
import type { z } from 'zod/v3';
import type { MultipartFile, PayOnUsClient, RequestOptions } from '../clientInterface';
import { PAYMENT_REQUESTS, type ReferenceSource, transfersOf } from './lookup';
import type { MoneyMovingOptions } from './options';
import type { Proof } from './proof';
import { moneyMovingParts } from './send';

/**
 * 0. What makes a call move money, declared once, by the operation that
 * makes it (its `moneyCall`, nodes/PayOnUs/resources/types.ts): where it
 * POSTs, what proves its success (./proof.ts), how it is looked up by its
 * merchant reference after a lost answer (./lookup.ts), and its body's
 * fields (checked before anything is sent). Nothing else lists money-moving
 * calls: the request is built from the declaration (moneyRequest below), so
 * a call without a proof cannot be sent; the drill and the tests read the
 * declarations from the operation registry.
 */

/** How a lost answer is looked up by merchant reference. */
export type LookupBy =
	/** Among the payment requests (every payin): GET /api/v1/payment-requests, `reference` filter. */
	| 'paymentRequests'
	/** Among the merchant's transfers (payouts): `merchantReference` filter, never trusted. */
	| 'transfers'
	/** A batch: its rows' transfers, which can show it landed but never prove it did not (never resent). */
	| 'batch';

export interface MoneyCall<B extends z.ZodTypeAny = z.ZodTypeAny> {
	/** Where the call POSTs (nodes/shared/api/paths.ts). */
	path: string;
	/** What proves a record is this movement (rule 1). */
	proof: Proof;
	/** How it is looked up by its reference before anything is resent. */
	lookup: LookupBy;
	/** The body's fields (a multipart call: its form fields), checked before sending. */
	body: B;
	/** A payin whose record must also show the customer's phone asked to approve it (mobile money). */
	customerPhone?: boolean;
}

/** A body refused by its call's schema: every field at fault, by its path in the body. */
export class MoneyBodyError extends Error {
	constructor(readonly issues: z.ZodIssue[]) {
		super(issues.map((issue) => `${issuePath(issue)}: ${issue.message}`).join('; '));
		this.name = 'PayinInputError';
	}
}

/** "customer.email", or "input" for the body as a whole. */
export function issuePath(issue: z.ZodIssue): string {
	return issue.path.length > 0 ? issue.path.join('.') : 'input';
}

/** The body as its schema reads it (trimmed, upper-cased codes, amounts as numbers), or a MoneyBodyError. */
export function checked<T>(schema: z.ZodTypeAny, body: unknown): T {
	const parsed = schema.safeParse(body);
	if (!parsed.success) throw new MoneyBodyError(parsed.error.issues);
	return parsed.data as T;
}

/** The list a call's reference is looked up in (transfers: the merchant's); undefined for a batch (its own lookup). */
export function referenceSource(call: MoneyCall, merchantId?: string): ReferenceSource | undefined {
	if (call.lookup === 'paymentRequests') return PAYMENT_REQUESTS;
	if (call.lookup === 'transfers') {
		if (merchantId === undefined) throw new Error(`${call.path}: a transfer is looked up among a merchant's transfers: no merchant given`);
		return transfersOf(merchantId);
	}
	return undefined;
}

/** What a money-moving call sends: a JSON body, or multipart form fields and files. */
export type MoneySent = { body: unknown } | { form: { fields: unknown; files: MultipartFile[] } };

/** Its declared fields as its schema reads them, without the values left out (undefined). */
function given(call: MoneyCall, fields: unknown): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(checked<IDataObject>(call.body, fields))) if (value !== undefined) out[key] = value;
	return out;
}

/**
 * The request of a money-moving call, built from its declaration: its path,
 * its body (or form fields) checked with its declared schema (a
 * MoneyBodyError naming every field at fault, nothing sent), and the
 * money-moving options, made from the checked body (`options`), with its
 * declared proof; sent by the money-moving policy (./send.ts).
 */
export function moneyRequest(call: MoneyCall, sent: MoneySent, options: (body: IDataObject) => Omit<MoneyMovingOptions, 'proof'>): RequestOptions {
	const body = given(call, 'body' in sent ? sent.body : sent.form.fields);
	const what = 'body' in sent ? { body } : { form: { fields: body as Record<string, string>, files: sent.form.files } };
	return { method: 'POST', path: call.path, ...what, ...moneyMovingParts({ ...options(body), proof: call.proof }) };
}

/** Sends a money-moving call (moneyRequest) through `client`; the service's answer (`data`). */
export async function sendMoney<T = IDataObject>(
	client: PayOnUsClient,
	call: MoneyCall,
	sent: MoneySent,
	options: (body: IDataObject) => Omit<MoneyMovingOptions, 'proof'>,
): Promise<T> {
	return await client.request<T>(moneyRequest(call, sent, options));
}
