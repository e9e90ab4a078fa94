import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';
import type { PayOnUsClient } from '../../../shared/clientInterface';
import { bool, businessId as businessIdInput, currency, oneOf, optional, reference, text } from '../../../shared/validation';
import type { OperationContext, PayOnUsOperation } from '../types';
import { PayOnUsInputError } from '../types';
import {
	buildCsv,
	CSV_COLUMNS,
	describeProblems,
	readCsvRows,
	rowPlace,
	validateRows,
	type BulkRow,
	type RawRow,
} from './csv';
import { businessIdField, currencyField } from '../fields';
import { PATHS, walkPages } from '../../../shared/api';
import { LOOKUP_MAX_PAGES, LOOKUP_PAGE_SIZE, type MoneyCall, sendMoney, transfersOf } from '../../../shared/moneyMoving';
import { resolveMerchantId } from './shared';
import { toTransfer } from '../../../shared/records';

/**
 * Bulk Transfer: one batch of bank transfers sent as a CSV with one batch
 * reference (multipart; DESIGN.md "Shapes the spec leaves open"). MOVES
 * MONEY.
 *
 * Source of the rows:
 * - "CSV File": the CSV in a binary property of each input item; one batch
 *   per input item.
 * - "Input Items": every input item is one row (fields named like the CSV
 *   columns); ONE batch for all the items of the run, sent once, with the
 *   reference, business and currency of the first item. The single output
 *   item is paired with every input item.
 *
 * Every row is checked before anything is sent; one bad row stops the whole
 * batch with a per-row report.
 */

const properties: INodeProperties[] = [
	{
		displayName:
			'This operation moves real money out of the wallet. The batch reference must be unique for the business: a retry with the same reference is never paid twice.',
		name: 'moneyNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Source',
		name: 'source',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'CSV File',
				value: 'binary',
				description: 'A CSV file in a binary property of each input item; one batch per item',
			},
			{
				name: 'Input Items',
				value: 'items',
				description: 'Each input item is one row; all items of the run make ONE batch',
			},
		],
		default: 'binary',
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		displayOptions: { show: { source: ['binary'] } },
		description: `Binary property holding the CSV: header row ${CSV_COLUMNS.join(', ')} (narration may be empty)`,
	},
	{
		displayName: `Each input item is one row with the fields ${CSV_COLUMNS.join(', ')} (narration optional). All the items of the run make ONE batch: Business, Currency and Batch Reference below are read once, for the first item.`,
		name: 'itemsNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { source: ['items'] } },
	},
	businessIdField(),
	currencyField({ required: true }),
	{
		displayName: 'Batch Reference',
		name: 'reference',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'salaries-2024-05',
		description:
			'Your reference of the whole batch, unique for the business (no spaces, at most 90 characters). A batch whose answer is lost is never sent again: check it in PayOnUs first.',
	},
	{
		displayName: 'Allow Duplicate Rows',
		name: 'allowDuplicateRows',
		type: 'boolean',
		default: false,
		description:
			'Whether to send a batch in which several rows pay the same account at the same bank the same amount. Off: such a batch is refused, naming the lines (CSV) or items, and nothing is sent; a row pasted twice pays twice.',
	},
];

const schema = z.object({
	source: oneOf(['binary', 'items'] as const),
	binaryPropertyName: optional(text(200)),
	businessId: businessIdInput(),
	currency: currency(),
	// Leaves room for the "-<row>" suffix inside the 100 characters of a reference.
	reference: reference(90),
	allowDuplicateRows: optional(bool()),
});

type Input = z.infer<typeof schema>;

async function readRows(ctx: OperationContext, input: Input): Promise<RawRow[]> {
	if (input.source === 'items') {
		const items = ctx.items ?? [ctx.item];
		return items.map((item) => {
			const values: RawRow['values'] = {};
			for (const c of CSV_COLUMNS) values[c] = item[c];
			return { values };
		});
	}
	const property = input.binaryPropertyName ?? 'data';
	const binary = await ctx.getBinary(property);
	const read = readCsvRows(binary.data.toString('utf8'));
	if ('error' in read) {
		throw new PayOnUsInputError('', `Binary property "${property}" cannot be read as a bulk transfer CSV, nothing was sent: ${read.error}`);
	}
	return read.rows;
}

export function rowReference(batch: string, row: number): string {
	return `${batch}-${row}`;
}

const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);
const money = (n: number) => Math.round(n * 100) / 100;

/**
 * Pairs the transfers of a batch with its rows (same beneficiary account and
 * amount, each transfer used once). Returns the problems (empty: every row
 * has its transfer). `strict`: a transfer that does not show its account or
 * amount is a problem (records found by lookup); otherwise it is not compared.
 */
export function compareRows(rows: BulkRow[], transfers: IDataObject[], strict: boolean, places?: string[]): string[] {
	const problems: string[] = [];
	if (transfers.length !== rows.length) problems.push(`${transfers.length} transfer(s) for ${rows.length} row(s)`);
	const unused = [...transfers];
	rows.forEach((row, i) => {
		const at = unused.findIndex((t) => {
			const account = typeof t.beneficiaryAccountNumber === 'string' ? t.beneficiaryAccountNumber.trim() : undefined;
			const amount = num(t.amount);
			if (account === undefined || !Number.isFinite(amount)) return !strict;
			return account === row.beneficiaryAccountNumber && Math.abs(amount - row.amount) <= 0.005;
		});
		if (at === -1) problems.push(`${places?.[i] ?? `row ${i + 1}`} (${row.amount} to ${row.beneficiaryAccountNumber}) has no matching transfer`);
		else unused.splice(at, 1);
	});
	return problems;
}

/** Differences between a batch answer (or the batch found by lookup) and the rows sent. */
export function batchCheck(batch: string, rows: BulkRow[], places?: string[]): (record: IDataObject, mode: 'answer' | 'record') => string[] {
	const total = money(rows.reduce((sum, r) => sum + r.amount, 0));
	return (record, mode) => {
		const out: string[] = [];
		if (typeof record.reference === 'string' && record.reference !== batch) out.push(`batch reference ${record.reference} (requested ${batch})`);
		const count = num(record.totalCount);
		if (Number.isFinite(count) && count !== rows.length) out.push(`${count} row(s) (requested ${rows.length})`);
		const amount = num(record.totalAmount);
		if (Number.isFinite(amount) && Math.abs(amount - total) > 0.005) out.push(`total amount ${amount} (requested ${total})`);
		const transfers = Array.isArray(record.transfers) ? (record.transfers as IDataObject[]) : undefined;
		// No transfers shown at all is the proof's to say (../../../shared/moneyMoving/proof.ts).
		if (transfers && (mode === 'record' || transfers.length > 0)) out.push(...compareRows(rows, transfers, mode === 'record', places));
		return out;
	};
}

/**
 * The lookup of a batch. The spec offers no way to find a batch (transfer
 * search documents merchantId and onusReference only; the bulk answer and
 * row references are not shown), so this can only find evidence that it
 * landed, never prove that it did not: the call is sent with
 * `lookupProvesAbsence: false` (a lost answer is never resent).
 * Evidence: transfers whose `bulkReference` is the batch (where records
 * carry it) or whose reference is `<batch>-<row>` (the sandbox's naming), of
 * this business, over the whole list (bounded). Every row found: the batch
 * (checked against the rows by batchCheck). Some but not all: an error (the
 * transport reports "outcome unknown"). None: undefined.
 */
export function batchLookup(
	client: PayOnUsClient,
	merchantId: string,
	businessId: string,
	batch: string,
	rows: BulkRow[],
): () => Promise<IDataObject | undefined> {
	return async () => {
		const source = transfersOf(merchantId);
		const refs = new Map(rows.map((_, i) => [rowReference(batch, i + 1), i] as const));
		const byRow = new Map<number, IDataObject>();
		const others: IDataObject[] = [];
		const seen = new Set<string>();
		await walkPages({
			path: source.path,
			style: 'fromOne',
			pageSize: LOOKUP_PAGE_SIZE,
			maxPages: LOOKUP_MAX_PAGES,
			fetch: async (pageNo, pageSize) =>
				await client.request<unknown>({
					method: 'GET',
					path: source.path,
					qs: { ...source.qs, businessId, bulkReference: batch, pageNo, pageSize },
				}),
			onPage: (records) => {
				for (const t of records) {
					if (typeof t.businessId === 'string' && t.businessId !== '' && t.businessId !== businessId) continue;
					const key = String(t.onusReference ?? JSON.stringify(t));
					if (seen.has(key)) continue;
					const row = typeof t.merchantReference === 'string' ? refs.get(t.merchantReference) : undefined;
					if (row !== undefined && !byRow.has(row)) {
						byRow.set(row, t);
						seen.add(key);
					} else if (t.bulkReference === batch) {
						others.push(t);
						seen.add(key);
					}
				}
				return byRow.size + others.length >= rows.length;
			},
		});
		const landed = [...[...byRow.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t), ...others];
		if (landed.length === 0) return undefined;
		if (landed.length < rows.length) {
			throw new Error(`found ${landed.length} of the ${rows.length} transfer(s) of batch "${batch}" (the others may exist under references the lookup cannot see)`);
		}
		return {
			reference: batch,
			totalCount: rows.length,
			transfersFound: landed.length,
			transfers: landed,
		};
	};
}

/** What makes it move money: the call, its proof, its lookup (batchLookup above) and its form fields (the rows: a CSV file). */
export const bulkBankTransfer = {
	path: PATHS.bulkBankTransfer,
	// The response is not shown: the rows prove the batch (every row a transfer matching it).
	proof: { kind: 'bulk transfer', types: ['TRNF'], answer: [], record: [], batch: true },
	lookup: 'batch',
	body: z.object({ reference: reference(90), businessId: businessIdInput(), currency: currency() }),
} satisfies MoneyCall;

export const bulkTransfer: PayOnUsOperation<typeof schema> = {
	value: 'bulkTransfer',
	name: 'Create Bulk Transfer',
	action: 'Create a bulk transfer',
	description:
		'Pay many bank accounts in one batch from a CSV file or from the input items (moves money). Every row is checked before anything is sent. Returns the batch: reference, count, total amount, total fee and one transfer record per row.',
	properties,
	schema,
	effect: 'movesMoney',
	money: { direction: 'out' },
	moneyCall: bulkBankTransfer,
	paging: false,
	aggregatesItems: (input) => input.source === 'items',
	async execute(ctx: OperationContext, input) {
		const { client } = ctx;
		const { businessId } = input;
		const merchantId = resolveMerchantId(client, undefined, 'to check a batch by its reference after a lost answer');

		const raw = await readRows(ctx, input);
		const places = raw.map((r, i) => rowPlace(r, i + 1));
		const { rows, problems } = validateRows(raw, {
			allowDuplicateRows: input.allowDuplicateRows === true,
		});
		if (problems.length > 0) {
			const where = input.source === 'items' ? 'input items' : 'CSV (line 1 is the header)';
			throw new PayOnUsInputError(
				'',
				`Bulk transfer refused, nothing was sent: ${problems.length} problem(s) in the ${where}: ${describeProblems(problems)}`,
			);
		}

		const csv = buildCsv(rows);
		const form = {
			fields: { reference: input.reference, businessId, currency: input.currency },
			files: [
				{ field: 'file', filename: `${input.reference.replace(/[^A-Za-z0-9._-]/g, '_')}.csv`, contentType: 'text/csv', data: Buffer.from(csv, 'utf8') },
			],
		};
		const result = await sendMoney<IDataObject>(client, bulkBankTransfer, { form }, () => ({
			reference: input.reference,
			lookup: batchLookup(client, merchantId, businessId, input.reference, rows),
			check: batchCheck(input.reference, rows, places),
			places,
			describe: `${rows.length} row(s), ${input.currency} ${money(rows.reduce((sum, r) => sum + r.amount, 0))} in total, business ${businessId}`,
			noun: 'bulk transfer',
			// Nothing in the spec can prove a batch absent: a lost answer is never resent.
			lookupProvesAbsence: false,
		}));
		// Each row's transfer in the one transfer shape (nodes/shared/records.ts).
		return Array.isArray(result?.transfers)
			? { ...result, transfers: (result.transfers as IDataObject[]).map(toTransfer) }
			: result;
	},
};
