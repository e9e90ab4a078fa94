import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';
import { LISTS, pageQuery, walkPages } from '../../../shared/api';
import { toPayin, toTransfer } from '../../../shared/records';
import { date, identifier, oneOf, optional, text } from '../../../shared/validation';
import { parseAmount } from '../../../shared/values/amount';
import { notTextMessage, spreadsheetSafeDeep } from '../../../shared/values/text';
import { resolveMerchantId } from '../payout/shared';
import { allItemsAtOnce, PayOnUsInputError, type OperationContext, type PayOnUsOperation } from '../types';

/**
 * Reconcile: compares the input items (our records: reference, optional
 * amount, currency and status) with the service's payins or payouts created
 * in a window of days, and outputs one item per record in one category:
 *
 * - matched: same reference, and amount / currency / status equal where we give them
 * - amountDiffers: amount or currency differs (status may differ too: see `differences`)
 * - statusDiffers: only the status differs
 * - missingAtService: our reference has no service record in the window
 * - missingOnOurSide: a service record in the window that no input item names
 * - duplicateOnOurSide: our records hold the reference more than once (each
 *   of them; `service` is the one service record, or null)
 * - duplicateAtService: the service holds the reference more than once in
 *   one business (each of our records and each service record)
 * - ambiguousBusiness: no Business ID given and the reference is held by
 *   records of two or more businesses while we hold it too: which one is
 *   ours cannot be told (each of our records and each service record)
 *
 * A reference is only "matched" (or amountDiffers / statusDiffers) when
 * exactly one of our records and exactly one service record hold it; the
 * three categories above are never folded into those. A status the spec
 * does not list (PROCESSING on a payout, REJECTED...) is compared like any
 * other: never taken as success.
 *
 * The service list is walked page by page (shared/api/paging.ts
 * walkPages): each page is compared and dropped, only the output is kept.
 * Records created outside the window are ignored here whatever the service's
 * filter did.
 *
 * Values are read one way (rule 7): a reference given as a number is refused
 * (it may have lost leading zeros), an amount written with a decimal comma or
 * thousands separators is refused naming the form to write. The output is a
 * report people open in spreadsheets: every text in it that a spreadsheet
 * would run as a formula (starting with = + - @, a tab or a line break)
 * starts with ' (shared/values/text.ts spreadsheetSafe).
 */

export const RECONCILE_PAGE_SIZE = 100;
/** Pages read at most (100,000 records): more is an error, never a partial answer. */
export const RECONCILE_MAX_PAGES = 1000;

const properties: INodeProperties[] = [
	{
		displayName:
			'All input items are compared at once (one run, one walk of the service list). Each item is one of our records: its reference, and optionally amount, currency and status, read from the fields named below.',
		name: 'reconcileNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Records',
		name: 'records',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Payins', value: 'payins', description: 'Payment requests (every collection)' },
			{ name: 'Payouts', value: 'payouts', description: 'Transfers of the merchant' },
		],
		default: 'payins',
	},
	{
		displayName: 'Business ID',
		name: 'businessId',
		type: 'string',
		default: '',
		description: 'Only records of this business (empty: every business of the merchant)',
	},
	{
		displayName: 'From Date',
		name: 'fromDate',
		type: 'string',
		default: '',
		required: true,
		placeholder: '2024-05-01',
		description: 'First day of the window (YYYY-MM-DD, creation date of the records)',
	},
	{
		displayName: 'To Date',
		name: 'toDate',
		type: 'string',
		default: '',
		required: true,
		placeholder: '2024-05-31',
		description: 'Last day of the window (YYYY-MM-DD, included)',
	},
	{
		displayName: 'Reference Field',
		name: 'referenceField',
		type: 'string',
		default: 'reference',
		description: 'Field of the input items holding the merchant reference',
	},
	{
		displayName: 'Amount Field',
		name: 'amountField',
		type: 'string',
		default: 'amount',
		description: 'Field holding the amount (compared to the cent when present)',
	},
	{
		displayName: 'Currency Field',
		name: 'currencyField',
		type: 'string',
		default: 'currency',
		description: 'Field holding the currency (compared when present)',
	},
	{
		displayName: 'Status Field',
		name: 'statusField',
		type: 'string',
		default: 'status',
		description: 'Field holding the status, e.g. SUCCESSFUL (compared ignoring case when present)',
	},
];

const field = () => text(100);

const schema = z
	.object({
		records: oneOf(['payins', 'payouts'] as const),
		businessId: optional(identifier('BUS-2001')),
		fromDate: date(),
		toDate: date(),
		referenceField: field(),
		amountField: field(),
		currencyField: field(),
		statusField: field(),
	})
	.superRefine((v, ctx) => {
		if (v.fromDate > v.toDate) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['toDate'], message: 'must not be before fromDate' });
	});

type Input = z.infer<typeof schema>;

export type Category =
	| 'matched'
	| 'amountDiffers'
	| 'statusDiffers'
	| 'missingAtService'
	| 'missingOnOurSide'
	| 'duplicateOnOurSide'
	| 'duplicateAtService'
	| 'ambiguousBusiness';

interface Ours {
	item: number;
	reference: string;
	amount?: number;
	currency?: string;
	status?: string;
}

const present = (v: unknown) => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '');
const cents = (v: unknown) => Math.round(Number(v) * 100);

function readOurs(items: IDataObject[], input: Input): Map<string, Ours[]> {
	const ours = new Map<string, Ours[]>();
	items.forEach((item, i) => {
		const ref = item[input.referenceField];
		if (!present(ref) || (typeof ref !== 'string' && typeof ref !== 'number')) {
			throw new PayOnUsInputError('', `Field "${input.referenceField}" (the reference) is missing [item ${i}]: nothing was compared`);
		}
		if (typeof ref !== 'string') {
			throw new PayOnUsInputError('', `Field "${input.referenceField}" (the reference) ${notTextMessage(ref)} [item ${i}]: nothing was compared`);
		}
		const amount = item[input.amountField];
		const read = typeof amount === 'string' ? parseAmount(amount) : undefined;
		if (read && !read.ok && read.write) {
			throw new PayOnUsInputError('', `Field "${input.amountField}" ${read.message} [item ${i}]: nothing was compared`);
		}
		if (present(amount) && !Number.isFinite(Number(amount))) {
			throw new PayOnUsInputError('', `Field "${input.amountField}" must be a number, not ${JSON.stringify(amount)} [item ${i}]`);
		}
		const record: Ours = {
			item: i,
			reference: String(ref).trim(),
			...(present(amount) ? { amount: Number(amount) } : {}),
			...(present(item[input.currencyField]) ? { currency: String(item[input.currencyField]).trim().toUpperCase() } : {}),
			...(present(item[input.statusField]) ? { status: String(item[input.statusField]).trim().toUpperCase() } : {}),
		};
		const list = ours.get(record.reference) ?? [];
		list.push(record);
		ours.set(record.reference, list);
	});
	return ours;
}

function ourView(o: Ours): IDataObject {
	return {
		item: o.item + 1,
		...(o.amount !== undefined ? { amount: o.amount } : {}),
		...(o.currency !== undefined ? { currency: o.currency } : {}),
		...(o.status !== undefined ? { status: o.status } : {}),
	};
}

function serviceView(r: IDataObject): IDataObject {
	return {
		onusReference: r.onusReference ?? null,
		businessId: r.businessId ?? null,
		amount: r.amount ?? null,
		currency: r.currency ?? null,
		paymentStatus: r.paymentStatus ?? null,
		createdDate: r.createdDate ?? null,
	};
}

/** Compares one of our records with the service's: the category and the differences. */
export function compareRecord(o: Ours, r: IDataObject): { category: Category; differences: string[] } {
	const differences: string[] = [];
	if (o.amount !== undefined && cents(o.amount) !== cents(r.amount)) differences.push(`amount: ours ${o.amount}, service ${String(r.amount)}`);
	if (o.currency !== undefined && o.currency !== String(r.currency ?? '').toUpperCase()) {
		differences.push(`currency: ours ${o.currency}, service ${String(r.currency)}`);
	}
	const moneyDiffers = differences.length > 0;
	if (o.status !== undefined && o.status !== String(r.paymentStatus ?? '').toUpperCase()) {
		differences.push(`status: ours ${o.status}, service ${String(r.paymentStatus)}`);
	}
	const category: Category = moneyDiffers ? 'amountDiffers' : differences.length > 0 ? 'statusDiffers' : 'matched';
	return { category, differences };
}

const items = (mine: Ours[]) => mine.map((o) => o.item + 1).join(', ');
const businessOf = (r: IDataObject) => (typeof r.businessId === 'string' && r.businessId !== '' ? r.businessId : undefined);

/**
 * The output items of one reference: our records holding it (`mine`) and
 * the service records holding it (`records`, already views).
 */
export function categorise(reference: string, mine: Ours[], records: IDataObject[]): IDataObject[] {
	const out = (category: Category, o: Ours | null, r: IDataObject | null, differences: string[]): IDataObject => ({
		category,
		reference,
		ours: o ? ourView(o) : null,
		service: r,
		differences,
	});
	if (mine.length === 0) {
		if (records.length === 1) return [out('missingOnOurSide', null, records[0], [])];
		// Several service records and none of ours: in one business a duplicate;
		// in several, each is a record nobody booked.
		const businesses = new Set(records.map(businessOf));
		if (businesses.size > 1 || businesses.has(undefined)) return records.map((r) => out('missingOnOurSide', null, r, []));
		const note = `the service holds reference ${reference} ${records.length} times in business ${String([...businesses][0])}`;
		return records.map((r) => out('duplicateAtService', null, r, [note]));
	}
	if (records.length === 0) {
		if (mine.length === 1) return [out('missingAtService', mine[0], null, [])];
		const note = `our records hold reference ${reference} ${mine.length} times (items ${items(mine)}); the service has no record of it`;
		return mine.map((o) => out('duplicateOnOurSide', o, null, [note]));
	}
	if (mine.length === 1 && records.length === 1) {
		const { category, differences } = compareRecord(mine[0], records[0]);
		return [out(category, mine[0], records[0], differences)];
	}
	if (records.length > 1) {
		const known = records.map(businessOf);
		const businesses = [...new Set(known.filter((b): b is string => b !== undefined))];
		// Records that do not say their business are counted as another business: which one is ours cannot be told.
		const ambiguous = businesses.length > 1 || known.includes(undefined);
		const category: Category = ambiguous ? 'ambiguousBusiness' : 'duplicateAtService';
		const note = ambiguous
			? `reference ${reference} is held by ${records.length} service records (businesses ${known.map((b) => b ?? 'not shown').join(', ')}) and by our item(s) ${items(mine)}: ` +
				'which is ours cannot be told without a Business ID'
			: `the service holds reference ${reference} ${records.length} times in business ${businesses[0]}; our item(s) ${items(mine)}`;
		return [...mine.map((o) => out(category, o, null, [note])), ...records.map((r) => out(category, null, r, [note]))];
	}
	const note = `our records hold reference ${reference} ${mine.length} times (items ${items(mine)}) against one service record`;
	return mine.map((o) => out('duplicateOnOurSide', o, records[0], [note, ...compareRecord(o, records[0]).differences]));
}

const day = (r: IDataObject) => (typeof r.createdDate === 'string' ? r.createdDate.slice(0, 10) : undefined);

export const reconcile: PayOnUsOperation<typeof schema> = {
	value: 'reconcile',
	name: 'Reconcile',
	action: 'Reconcile records with the service',
	description:
		"Compare the input items (reference, optional amount, currency and status) with the service's payins or payouts created in a window of days. Returns one item per record in one category: matched, amountDiffers, statusDiffers, missingAtService, missingOnOurSide, or, where a reference is held more than once, duplicateOnOurSide, duplicateAtService or ambiguousBusiness (read only).",
	properties,
	schema,
	// Reads only, but declared 'write' as it has always run: it keeps the Options
	// collection (Money-Moving Concurrency, without effect: it runs once) that
	// saved workflows may hold. Making it 'read' drops that public parameter.
	effect: 'write',
	paging: false,
	aggregatesItems: allItemsAtOnce,
	async execute(ctx: OperationContext, input) {
		const { client } = ctx;
		const ours = readOurs(ctx.items ?? [ctx.item], input);
		const payouts = input.records === 'payouts';
		const list = payouts ? LISTS.transfers : LISTS.payments;
		const { path, style } = list;
		const qs: IDataObject = {
			...(payouts ? { merchantId: resolveMerchantId(client, undefined, 'to list the transfers') } : {}),
			...(input.businessId ? { businessId: input.businessId } : {}),
			fromDate: input.fromDate,
			toDate: input.toDate,
		};
		const toRecord = payouts ? toTransfer : toPayin;
		// Service records by reference (first-seen order), each once (by onusReference).
		const service = new Map<string, IDataObject[]>();
		const seenService = new Set<string>();
		await walkPages({
			path,
			style,
			pageSize: RECONCILE_PAGE_SIZE,
			maxPages: RECONCILE_MAX_PAGES,
			fetch: async (page, size) =>
				await client.request<unknown>({
					method: 'GET',
					path,
					qs: { ...qs, ...pageQuery(list, page, size) },
				}),
			onPage: (records) => {
				for (const raw of records) {
					const r = toRecord(raw);
					const d = day(r);
					if (d !== undefined && (d < input.fromDate || d > input.toDate)) continue;
					if (input.businessId && typeof r.businessId === 'string' && r.businessId !== '' && r.businessId !== input.businessId) continue;
					const key = String(r.onusReference ?? JSON.stringify(r));
					if (seenService.has(key)) continue;
					seenService.add(key);
					const reference = String(r.merchantReference ?? r.reference ?? '');
					const held = service.get(reference);
					if (held) held.push(serviceView(r));
					else service.set(reference, [serviceView(r)]);
				}
			},
		});
		const results: IDataObject[] = [];
		for (const [reference, records] of service) results.push(...categorise(reference, ours.get(reference) ?? [], records));
		for (const [reference, mine] of ours) {
			if (!service.has(reference)) results.push(...categorise(reference, mine, []));
		}
		// A report opened in spreadsheets: nothing in it runs as a formula.
		return results.map((r) => spreadsheetSafeDeep(r));
	},
};
