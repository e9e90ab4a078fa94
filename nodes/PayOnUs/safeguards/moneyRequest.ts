import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient, RequestOptions } from '../../shared/clientInterface';
import { listMobileMoneyNetworks, PATHS } from '../../shared/api';
import { readCsvRows, validateRows, type BulkRow } from '../resources/payout/csv';
import { operationId, type MoneyMovement, type NodeOperation } from '../resources/types';

/**
 * Safeguards shared by the dry run (./dryRun.ts) and the AI-tool limits
 * (./toolLimits/): what a money-moving request is about to do (amount,
 * currency, beneficiaries), read from the request itself just before it
 * would be sent. Reading the final request, not the node's parameters, means
 * every operation is covered the same way and nothing an operation adds on
 * its own is missed. Which operations move money, and which way, each
 * operation declares (`effect: 'movesMoney'`, `money`).
 */

/** The money-moving declaration of an operation (every money-moving operation has one). */
export function moneyOf(op: NodeOperation): MoneyMovement {
	if (!op.money) throw new Error(`${operationId(op)} declares no money movement`);
	return op.money as MoneyMovement;
}

/** True for a request that must not be sent in a dry run / without a limit check (the name enquiry's POST passes). */
export function isMoneyRequest(opts: RequestOptions): boolean {
	if (opts.method === 'GET') return false;
	if (opts.method === 'POST' && opts.path === PATHS.nameEnquiry && !opts.moneyMoving) return false;
	return true;
}

/** Thrown by a holding client in place of sending a money-moving request. */
export class HeldRequest extends Error {
	constructor(readonly request: RequestOptions) {
		super(`${request.method} ${request.path} was not sent`);
		this.name = 'HeldRequest';
	}
}

/** Fields never shown in a dry run or a refusal (secrets, card data). */
const SECRET_KEYS = new Set(['cardData', 'cardTokenId', 'pin', 'otp', 'cvv', 'pan', 'cardNumber', 'password', 'token']);

export function redact(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(redact);
	if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
		const out: IDataObject = {};
		for (const [k, v] of Object.entries(value as IDataObject)) {
			out[k] = SECRET_KEYS.has(k) ? '[not shown]' : (redact(v) as IDataObject[keyof IDataObject]);
		}
		return out;
	}
	return value;
}

/** What a money-moving request asks for. */
export interface MoneyAsk {
	/** Total amount of the call (a bulk batch: the sum of its rows). */
	amount: number;
	/** Currency of the call; undefined when it cannot be told. */
	currency?: string;
	/** 'out' pays from a wallet; 'in' collects from a customer. */
	direction: 'out' | 'in';
	/** Accounts or phone numbers paid (payouts only). */
	beneficiaries: string[];
	businessId?: string;
	reference?: string;
	/** Bulk: the rows of the batch (read back from the CSV sent). */
	rows?: BulkRow[];
	/** The request as it would go out, without secrets or file bytes. */
	wouldSend: IDataObject;
}

const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Cents-exact sum of amounts with at most 2 decimals. */
export function addMoney(a: number, b: number): number {
	return Math.round(a * 100 + b * 100) / 100;
}

/** Reads the rows of a bulk request back from its CSV file part. */
function bulkRows(opts: RequestOptions): BulkRow[] {
	const file = opts.form?.files[0];
	if (!file) return [];
	const read = readCsvRows(file.data.toString('utf8'));
	if ('error' in read) return [];
	return validateRows(read.rows, { allowDuplicateRows: true }).rows;
}

/**
 * Mobile money collections name a network, not a currency: the network list
 * gives it. Read-only call through the given client.
 */
export async function networkCurrency(client: PayOnUsClient, network: string): Promise<string | undefined> {
	const found = (await listMobileMoneyNetworks(client)).find((n) => n.code === network);
	return str(found?.currency);
}

/**
 * What the request of a money-moving operation asks for; `money` is the
 * operation's declaration. `client` is used read-only (network currency).
 */
export async function readAsk(opts: RequestOptions, client: PayOnUsClient, money: MoneyMovement): Promise<MoneyAsk> {
	const body = opts.body ?? {};
	const base = { method: opts.method, path: opts.path };
	// A batch (Bulk Transfer, the one multipart money call): its CSV rows.
	if (opts.form) {
		const rows = bulkRows(opts);
		return {
			amount: rows.reduce((sum, r) => addMoney(sum, r.amount), 0),
			currency: str(opts.form.fields.currency),
			direction: 'out',
			beneficiaries: rows.map((r) => r.beneficiaryAccountNumber),
			businessId: str(opts.form.fields.businessId),
			reference: str(opts.form.fields.reference),
			rows,
			wouldSend: { ...base, fields: { ...opts.form.fields }, rows: rows.map((r) => ({ ...r })) },
		};
	}
	// The body's currency, else the one the operation declares implied (../resources/types.ts MoneyMovement).
	let currency = str(body.currency);
	if (!currency && money.impliedCurrency === 'network') {
		if (str(body.momoNetwork)) currency = await networkCurrency(client, body.momoNetwork as string);
	} else if (!currency) {
		currency = money.impliedCurrency;
	}
	const out = money.direction === 'out';
	return {
		amount: num(body.amount),
		currency,
		direction: money.direction,
		beneficiaries: out && str(body.beneficiaryAccountNumber) ? [body.beneficiaryAccountNumber as string] : [],
		businessId: str(body.businessId),
		reference: str(body.reference),
		wouldSend: { ...base, body: redact(body) as IDataObject },
	};
}
