import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';
import { LISTS, pageQuery, walkPages } from '../../../shared/api';
import { toPayin, toTransfer } from '../../../shared/records';
import { date, identifier, oneOf, optional, text } from '../../../shared/validation';
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
 *
 * The service list is walked page by page (shared/api/paging.ts
 * walkPages): each page is compared and dropped, only the output is kept.
 * Records created outside the window are ignored here whatever the service's
 * filter did.
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

export type Category = 'matched' | 'amountDiffers' | 'statusDiffers' | 'missingAtService' | 'missingOnOurSide';

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
		const amount = item[input.amountField];
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

const day = (r: IDataObject) => (typeof r.createdDate === 'string' ? r.createdDate.slice(0, 10) : undefined);

export const reconcile: PayOnUsOperation<typeof schema> = {
	value: 'reconcile',
	name: 'Reconcile',
	action: 'Reconcile records with the service',
	description:
		"Compare the input items (reference, optional amount, currency and status) with the service's payins or payouts created in a window of days. Returns one item per record in one category: matched, amountDiffers, statusDiffers, missingAtService or missingOnOurSide (read only).",
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
		const results: IDataObject[] = [];
		const seenOurs = new Set<string>();
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
					const mine = ours.get(reference);
					if (!mine) {
						results.push({ category: 'missingOnOurSide', reference, ours: null, service: serviceView(r), differences: [] });
						continue;
					}
					seenOurs.add(reference);
					for (const o of mine) {
						const { category, differences } = compareRecord(o, r);
						results.push({ category, reference, ours: ourView(o), service: serviceView(r), differences });
					}
				}
			},
		});
		for (const [reference, mine] of ours) {
			if (seenOurs.has(reference)) continue;
			for (const o of mine) {
				results.push({ category: 'missingAtService', reference, ours: ourView(o), service: null, differences: [] });
			}
		}
		return results;
	},
};
