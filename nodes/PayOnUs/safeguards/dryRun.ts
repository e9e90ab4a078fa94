import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { PaginateOptions, PayOnUsClient, RequestOptions } from '../../shared/clientInterface';
import { enquireName, listBanks, listEftBanks, listWallets, PATHS } from '../../shared/api';
import { findByReference, PAYMENT_REQUESTS, transfersOf } from '../../shared/moneyMoving';
import { formatAmount } from '../../shared/format';
import { batchLookup } from '../resources/payout/bulkTransfer';
import { namesMatch } from '../resources/payout/shared';
import { operationId, type NodeOperation, type OperationContext } from '../resources/types';
import { addMoney, HeldRequest, isMoneyRequest, moneyOf, readAsk, type MoneyAsk } from './moneyRequest';

/**
 * Dry Run: runs a money-moving operation up to the one request that would
 * move money, and holds that request (it is never sent). Then checks what
 * the service can tell without moving money, and reports per item:
 *
 * verdict: one line, first (issue 38): "PASSED: would send ..." or
 *   "FAILED: ... would NOT be sent: <each failed check: why>" (verdictOf);
 * dryRun: {
 *   operation, passed (every check passed), moneyMoved: false,
 *   amount, currency, wouldSend (method, path, body without secrets or card
 *   data; bulk: the batch fields and its rows),
 *   checks: [{ check, passed, detail }],
 *   runTotals: { <currency>: total of the items of this run that would be sent }
 * }
 *
 * Checks: validation; reference unused (lookup by reference, the same one
 * the transport uses after a lost answer); for payouts the wallet balance of
 * the business in the currency against this amount plus the earlier items
 * of the run (fees not included); for bank transfers and bulk rows the bank
 * code in the currency's bank list and a name enquiry (name match); for EFT
 * transfers the bank in the EFT bank list; for
 * mobile money collections the network's currency.
 */

export function dryRunProperty(): INodeProperties {
	return {
		displayName: 'Dry Run',
		name: 'dryRun',
		type: 'boolean',
		default: false,
		description:
			'Whether to only check this run and send nothing that moves money: inputs, reference unused, wallet balance, bank code and beneficiary name (bank transfers). Each item says what would be sent and which checks pass. From an expression: true or false (text counts) for every item, the same for all items; anything else stops the run, nothing sent.',
	};
}

export interface Check extends IDataObject {
	check: string;
	passed: boolean;
	detail: string;
}

/** A check's result before it is named. */
type Outcome = { passed: boolean; detail: string; accounts?: IDataObject[] };

/** Rows of a bulk batch checked by name enquiry at most (one call each). */
export const DRY_RUN_MAX_NAME_ENQUIRIES = 100;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A client that forwards reads and name enquiries and holds everything else. */
export function holdingClient(inner: PayOnUsClient): PayOnUsClient {
	return {
		environment: inner.environment,
		defaults: inner.defaults,
		request: async <T = IDataObject>(opts: RequestOptions): Promise<T> => {
			if (isMoneyRequest(opts)) throw new HeldRequest(opts);
			return await inner.request<T>(opts);
		},
		paginate: async <T = IDataObject>(opts: PaginateOptions): Promise<T[]> => await inner.paginate<T>(opts),
	};
}

/** One dry run over the items of one node run: caches and running totals. */
export class DryRunSession {
	/** Per currency: the amounts of the items that would be sent. */
	readonly runTotals: Record<string, number> = {};
	/** Per business|currency: paid out by the earlier items (wallet check). */
	private readonly spent = new Map<string, number>();
	private wallets?: Promise<IDataObject[]>;
	private readonly banks = new Map<string, Promise<Set<string>>>();

	constructor(private readonly client: PayOnUsClient) {}

	/** The report of an item whose inputs are invalid. */
	invalid(operation: string, reason: string, name = operation): IDataObject {
		return {
			verdict: `FAILED: ${name} would NOT be sent: validation: ${reason}`,
			operation,
			passed: false,
			moneyMoved: false,
			wouldSend: null,
			checks: [{ check: 'validation', passed: false, detail: reason }],
		};
	}

	async item(op: NodeOperation, ctx: OperationContext, input: IDataObject): Promise<IDataObject> {
		const operation = operationId(op);
		const money = moneyOf(op);
		// E.g. a name check the operation makes is one of the dry run's own checks (reported, not thrown).
		const runInput = money.dryRunInput ? (money.dryRunInput(input) as IDataObject) : input;
		let held: RequestOptions | undefined;
		try {
			await op.execute({ ...ctx, client: holdingClient(this.client) }, runInput);
		} catch (error) {
			if (error instanceof HeldRequest) held = error.request;
			else return this.invalid(operation, message(error), op.name);
		}
		if (!held) return this.invalid(operation, 'the operation built no money-moving request', op.name);

		const ask = await readAsk(held, this.client, money);
		const checks: Check[] = [{ check: 'validation', passed: true, detail: 'every input is valid' }];
		const currency = ask.currency ?? 'UNKNOWN';
		if (Number.isFinite(ask.amount)) this.runTotals[currency] = addMoney(this.runTotals[currency] ?? 0, ask.amount);

		checks.push(await this.guard('referenceUnused', async () => await this.referenceCheck(held, ask)));
		if (ask.direction === 'out') {
			checks.push(await this.guard('walletBalance', async () => await this.walletCheck(ask)));
		}
		if (held.path === PATHS.bankTransfer && held.body?.transferType === 'WALLET_TO_BANK_ACCOUNT') {
			const body = held.body;
			checks.push(await this.guard('bankCode', async () => await this.bankCheck(currency, [String(body.beneficiaryBankCode)])));
			checks.push(
				await this.guard('nameEnquiry', async () =>
					await this.nameCheck(ask, [
						{
							bank: String(body.beneficiaryBankCode),
							account: String(body.beneficiaryAccountNumber),
							name: String(body.beneficiaryAccountName),
						},
					]),
				),
			);
		}
		if (held.path === PATHS.bankTransfer && held.body?.transferType === 'WALLET_TO_EFT') {
			const code = String(held.body.eftBank);
			checks.push(await this.guard('bankCode', async () => await this.bankCheck('EFT', [code])));
		}
		const places = held.moneyMoving?.places;
		if (held.path === PATHS.bulkBankTransfer && ask.rows) {
			const rows = ask.rows;
			checks.push(await this.guard('bankCode', async () => await this.bankCheck(currency, rows.map((r) => r.beneficiaryBankCode))));
			checks.push(
				await this.guard('nameEnquiry', async () =>
					await this.nameCheck(
						ask,
						rows.map((r) => ({ bank: r.beneficiaryBankCode, account: r.beneficiaryAccountNumber, name: r.beneficiaryAccountName })),
						places,
					),
				),
			);
		}
		if (held.path === PATHS.mobileMoneyCollection) {
			checks.push({
				check: 'network',
				passed: ask.currency !== undefined,
				detail:
					ask.currency !== undefined
						? `network ${String(held.body?.momoNetwork)} collects ${ask.currency}`
						: `network ${String(held.body?.momoNetwork)} is not in the list of mobile money networks`,
			});
		}
		return {
			verdict: verdictOf(op.name, ask, checks),
			operation,
			passed: checks.every((c) => c.passed),
			moneyMoved: false,
			amount: ask.amount,
			currency,
			wouldSend: ask.wouldSend,
			checks,
		};
	}

	private async guard(check: string, run: () => Promise<Outcome>): Promise<Check> {
		try {
			return { check, ...(await run()) };
		} catch (error) {
			return { check, passed: false, detail: `could not be checked: ${message(error)}` };
		}
	}

	private merchant(): string {
		const id = this.client.defaults.merchantId;
		if (!id) throw new Error('no Merchant ID: set a Default Merchant ID in the PayOnUs API credential');
		return id;
	}

	private async referenceCheck(held: RequestOptions, ask: MoneyAsk): Promise<Outcome> {
		const reference = ask.reference ?? '';
		const businessId = ask.businessId ?? '';
		let found: IDataObject | undefined;
		if (held.path === PATHS.bulkBankTransfer) {
			found = await batchLookup(this.client, this.merchant(), businessId, reference, ask.rows ?? [])();
		} else if (ask.direction === 'out') {
			found = await findByReference(this.client, transfersOf(this.merchant()), businessId, reference);
		} else {
			found = await findByReference(this.client, PAYMENT_REQUESTS, businessId, reference);
		}
		if (!found) return { passed: true, detail: `no record of business ${businessId} holds reference "${reference}"` };
		const held_by = found.onusReference ? ` by ${String(found.onusReference)} (status ${String(found.paymentStatus ?? 'unknown')})` : '';
		return { passed: false, detail: `reference "${reference}" is already used${held_by}: the service would refuse it as a duplicate` };
	}

	private async walletCheck(ask: MoneyAsk): Promise<Outcome> {
		const merchantId = this.merchant();
		this.wallets ??= listWallets(this.client, merchantId);
		const wallets = await this.wallets;
		const key = `${ask.businessId ?? ''}|${ask.currency ?? ''}`;
		const before = this.spent.get(key) ?? 0;
		const needed = addMoney(before, Number.isFinite(ask.amount) ? ask.amount : 0);
		this.spent.set(key, needed);
		const wallet = wallets.find((w) => w.entityId === ask.businessId && w.currency === ask.currency);
		if (!wallet) return { passed: false, detail: `business ${String(ask.businessId)} has no ${String(ask.currency)} wallet` };
		if (wallet.payoutAllowed === false) return { passed: false, detail: `payouts are not allowed from the ${String(ask.currency)} wallet of ${String(ask.businessId)}` };
		const available = Number(wallet.availableBalance);
		const run = before > 0 ? ` (${formatAmount(needed, ask.currency)} with the earlier items of this run)` : '';
		const passed = Number.isFinite(available) && available >= needed;
		return {
			passed,
			detail: `${formatAmount(available, ask.currency)} available; this item needs ${formatAmount(ask.amount, ask.currency)}${run}, fees not included${passed ? '' : ': not enough'}`,
		};
	}

	private async bankList(currency: string): Promise<Set<string>> {
		let list = this.banks.get(currency);
		if (!list) {
			// 'EFT': the South African banks of EFT transfers.
			const banks = currency === 'EFT' ? listEftBanks(this.client) : listBanks(this.client, currency);
			list = banks.then((found) => new Set(found.map((b) => String(b.code))));
			this.banks.set(currency, list);
		}
		return await list;
	}

	private async bankCheck(currency: string, codes: string[]): Promise<Outcome> {
		const known = await this.bankList(currency);
		const unknown = [...new Set(codes)].filter((c) => !known.has(c));
		return unknown.length === 0
			? { passed: true, detail: `bank code ${[...new Set(codes)].join(', ')} is in the ${currency} bank list` }
			: { passed: false, detail: `bank code ${unknown.join(', ')} is not in the ${currency} bank list` };
	}

	private async nameCheck(
		ask: MoneyAsk,
		accounts: Array<{ bank: string; account: string; name: string }>,
		places?: string[],
	): Promise<Outcome> {
		const results: IDataObject[] = [];
		const problems: string[] = [];
		for (const [i, a] of accounts.slice(0, DRY_RUN_MAX_NAME_ENQUIRIES).entries()) {
			const found = await enquireName(this.client, {
				institutionCode: a.bank,
				accountNumber: a.account,
				businessId: ask.businessId ?? '',
				currency: ask.currency ?? '',
			});
			const bankName = typeof found?.accountName === 'string' ? found.accountName : '';
			const matched = namesMatch(bankName, a.name);
			results.push({ accountNumber: a.account, accountName: bankName, matched });
			if (!matched) {
				const where = accounts.length > 1 ? `${places?.[i] ?? `row ${i + 1}`}: ` : '';
				problems.push(`${where}account ${a.account} belongs to "${bankName}", not "${a.name}"`);
			}
		}
		const skipped = accounts.length - Math.min(accounts.length, DRY_RUN_MAX_NAME_ENQUIRIES);
		const tail = skipped > 0 ? `; ${skipped} row(s) beyond the first ${DRY_RUN_MAX_NAME_ENQUIRIES} not checked` : '';
		if (problems.length > 0) return { passed: false, detail: problems.join('; ') + tail, accounts: results };
		const detail =
			accounts.length === 1
				? `the bank says account ${accounts[0].account} belongs to "${String(results[0].accountName)}": names match`
				: `all ${results.length} names match${tail}`;
		return { passed: skipped === 0, detail, accounts: results };
	}
}

/** The dry run of a whole node run: one report per item (or one for an aggregating run). */
export async function dryRunItems(
	op: NodeOperation,
	client: PayOnUsClient,
	inputs: Array<{ ok: true; data: IDataObject } | { ok: false; message: string }>,
	context: (itemIndex: number) => OperationContext,
	aggregate: boolean,
): Promise<IDataObject[]> {
	const session = new DryRunSession(client);
	const operation = operationId(op);
	const reports: IDataObject[] = [];
	const targets = aggregate ? [0] : inputs.map((_, i) => i);
	for (const i of targets) {
		const input = inputs[i];
		reports.push(input.ok ? await session.item(op, context(i), input.data) : session.invalid(operation, input.message, op.name));
	}
	return reports.map(({ verdict, ...report }) => ({ verdict, dryRun: { ...report, runTotals: { ...session.runTotals } } }));
}

/**
 * The one-line verdict of an item (issue 38): what would be sent and, when
 * a check fails, that it would not be sent and why (every failed check,
 * named, with its detail). First in the output item, so the table and the
 * schema view show it before the report.
 */
export function verdictOf(name: string, ask: MoneyAsk, checks: Check[]): string {
	const amount = formatAmount(ask.amount, ask.currency);
	const what = ask.rows
		? `${name} of ${ask.rows.length} row(s), ${amount} in total`
		: `${name} of ${amount}${ask.direction === 'out' && ask.beneficiaries.length === 1 ? ` to account ${ask.beneficiaries[0]}` : ''}`;
	const ref = ask.reference ? ` (reference "${ask.reference}")` : '';
	const failed = checks.filter((c) => !c.passed);
	if (failed.length === 0) return `PASSED: would send ${what}${ref}; every check passed, nothing was sent.`;
	const why = failed.map((c) => `${c.check}: ${c.detail}`).join('; ').replace(/\s+/g, ' ');
	return `FAILED: ${what}${ref} would NOT be sent: ${why}`;
}
