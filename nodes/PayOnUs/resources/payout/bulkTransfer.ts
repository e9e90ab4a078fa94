import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';
import type { PayOnUsClient } from '../../../shared/client';
import { bool, businessId as businessIdInput, currency, oneOf, optional, reference, text } from '../../../shared/validation';
import type { OperationContext, PayOnUsOperation } from '../types';
import { PayOnUsInputError } from '../types';
import {
	buildCsv,
	CSV_COLUMNS,
	describeProblems,
	readCsvRows,
	validateRows,
	type BulkRow,
	type RawRow,
} from './csv';
import { businessIdField, currencyField } from '../fields';
import { findByReferences, transfersOf } from '../lookup';
import { resolveMerchantId } from './shared';

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

export const BULK_TRANSFER_PATH = '/api/v1/transfer-requests/bulk/bank-transfer';

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
			'Your reference of the whole batch, unique for the business (no spaces, at most 90 characters). Row N gets the reference &lt;batch reference&gt;-N.',
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
		throw new PayOnUsInputError(property, `cannot be read as a bulk transfer CSV, nothing was sent: ${read.error}`);
	}
	return read.rows;
}

export function rowReference(batch: string, row: number): string {
	return `${batch}-${row}`;
}

/**
 * The lookup of a batch: row 1's reference tells whether the batch landed;
 * if so, the rows are collected (each checked, see ../lookup.ts) into a
 * summary like the service's answer.
 */
export function batchLookup(
	client: PayOnUsClient,
	merchantId: string,
	businessId: string,
	batch: string,
	rows: BulkRow[],
): () => Promise<IDataObject | undefined> {
	return async () => {
		const transfers = transfersOf(merchantId);
		const first = await findByReferences(client, transfers, businessId, [rowReference(batch, 1)]);
		if (first.size === 0) return undefined;
		const refs = rows.map((_, i) => rowReference(batch, i + 1));
		const found = rows.length === 1 ? first : await findByReferences(client, transfers, businessId, refs);
		const landed = refs.map((r) => found.get(r)).filter((t): t is IDataObject => t !== undefined);
		return {
			reference: batch,
			totalCount: rows.length,
			transfersFound: landed.length,
			transfers: landed,
		};
	};
}

export const bulkTransferOperation: PayOnUsOperation<typeof schema> = {
	resource: 'payout',
	value: 'bulkTransfer',
	name: 'Bulk Transfer',
	action: 'Create a bulk transfer',
	description:
		'Pay many bank accounts in one batch from a CSV file or from the input items (moves money). Every row is checked before anything is sent. Returns the batch: reference, count, total amount, total fee and one transfer record per row.',
	properties,
	schema,
	aggregatesItems: (input) => input.source === 'items',
	async execute(ctx: OperationContext, input) {
		const { client } = ctx;
		const { businessId } = input;
		const merchantId = resolveMerchantId(client, undefined, 'to check a batch by its reference after a lost answer');

		const { rows, problems } = validateRows(await readRows(ctx, input), {
			allowDuplicateRows: input.allowDuplicateRows === true,
		});
		if (problems.length > 0) {
			const where = input.source === 'items' ? 'input items (row N = item N)' : 'CSV rows';
			throw new PayOnUsInputError(
				'',
				`Bulk transfer refused, nothing was sent: ${problems.length} problem(s) in the ${where}: ${describeProblems(problems)}`,
			);
		}

		const csv = buildCsv(rows);
		const result = await client.request<IDataObject>({
			method: 'POST',
			path: BULK_TRANSFER_PATH,
			form: {
				fields: { reference: input.reference, businessId, currency: input.currency },
				files: [
					{ field: 'file', filename: `${input.reference.replace(/[^A-Za-z0-9._-]/g, '_')}.csv`, contentType: 'text/csv', data: Buffer.from(csv, 'utf8') },
				],
			},
			moneyMoving: {
				reference: input.reference,
				lookup: batchLookup(client, merchantId, businessId, input.reference, rows),
			},
		});
		return result;
	},
};
