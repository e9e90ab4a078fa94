import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';
import {
	accountNumber,
	amount,
	bankText,
	bool,
	businessId as businessIdInput,
	countryCode,
	currency,
	email,
	identifier,
	oneOf,
	optional,
	optionalText,
	phone,
	reference,
	TEXT_LIMITS,
} from '../../../shared/validation';
import { itemByItem, type OperationContext, type PayOnUsOperation } from '../types';
import { PayOnUsInputError } from '../types';
import { amountField, businessIdField, currencyField, narrationField, referenceField } from '../fields';
import { enquireName, PATHS } from '../../../shared/api';
import { type MoneyCall, moneyMoving, referenceSource, sendMoney, TRANSFER_RECORD } from '../../../shared/moneyMoving';
import { namesMatch, resolveMerchantId } from './shared';
import { toTransfer } from '../../../shared/records';
import { PENDING_IS_NOT_FINAL } from './pendingHint';

/**
 * Create Transfer: pays money out of a wallet to a bank account, a mobile
 * money account or a bank via EFT. MOVES MONEY: the call carries the
 * merchant reference and a lookup by that reference, so the transport never
 * resends it blindly (see DESIGN.md, transport contract).
 */

const BANK = 'WALLET_TO_BANK_ACCOUNT';
const MOMO = 'WALLET_TO_MOMO';
const EFT = 'WALLET_TO_EFT';
const TRANSFER_TYPES = [BANK, MOMO, EFT] as const;

const properties: INodeProperties[] = [
	{
		displayName:
			'This operation moves real money out of the wallet. Every transfer needs a reference unique for the business: a retry with the same reference is never paid twice.',
		name: 'moneyNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: PENDING_IS_NOT_FINAL,
		name: 'pendingNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Transfer Type',
		name: 'transferType',
		type: 'options',
		options: [
			{ name: 'Bank Account', value: BANK, description: 'Pay a bank account' },
			{ name: 'EFT', value: EFT, description: 'Pay a South African bank account by EFT' },
			{ name: 'Mobile Money', value: MOMO, description: 'Pay a mobile money account (phone number)' },
		],
		default: BANK,
	},
	businessIdField({ description: "The business whose wallet pays. Leave empty to use the credential's Default Business ID." }),
	amountField({ description: 'Amount to pay from the wallet, greater than 0, at most 2 decimal places' }),
	currencyField({ required: true, description: 'Currency of the wallet paying out. Choose from the list, or specify a code using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.' }),
	{
		displayName: 'Country Code',
		name: 'countryCode',
		type: 'string',
		default: '',
		placeholder: 'Taken from the currency',
		description: 'Two-letter country code of the beneficiary, e.g. NG, KE, ZA. Leave empty to use the country of the currency.',
		hint: 'Empty: NG for NGN, KE for KES, GH for GHS, ZA for ZAR. Needed only for USD.',
	},
	referenceField({ placeholder: 'e.g. payout-2024-0001' }),
	// Bank account
	{
		displayName: 'Beneficiary Bank Name or ID',
		name: 'beneficiaryBankCode',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getBanks', loadOptionsDependsOn: ['currency'] },
		default: '',
		required: true,
		displayOptions: { show: { transferType: [BANK] } },
		description:
			'Bank of the beneficiary, from the banks of the currency. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	// EFT
	{
		displayName: 'EFT Bank Name or ID',
		name: 'eftBank',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getEftBanks' },
		default: '',
		required: true,
		displayOptions: { show: { transferType: [EFT] } },
		description:
			'South African bank of the beneficiary. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Beneficiary Account Number',
		name: 'beneficiaryAccountNumber',
		type: 'string',
		default: '',
		required: true,
		placeholder: '9999991112',
		displayOptions: { show: { transferType: [BANK, EFT] } },
	},
	// Mobile money
	{
		displayName: 'Mobile Money Network Name or ID',
		name: 'momoNetwork',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getMobileMoneyNetworks', loadOptionsDependsOn: ['currency'] },
		default: '',
		required: true,
		displayOptions: { show: { transferType: [MOMO] } },
		description:
			'Mobile money network of the beneficiary, from the networks of the currency. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Beneficiary Phone Number',
		name: 'beneficiaryPhoneNumber',
		type: 'string',
		default: '',
		required: true,
		placeholder: '+254700000000',
		displayOptions: { show: { transferType: [MOMO] } },
		description: 'Mobile money number of the beneficiary in international format: + and the country code (a local number such as 0700000000 is refused)',
	},
	{
		displayName: 'Beneficiary Account Name',
		name: 'beneficiaryAccountName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'Ada Obi',
	},
	narrationField({ required: true, placeholder: 'e.g. Invoice 1042' }),
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		description: 'E-mail address shown on the bank transfer (optional)',
	},
	// On by default: the spec says the name enquiry is always performed before a bank transfer.
	{
		displayName: 'Verify Beneficiary Name First',
		name: 'verifyBeneficiaryName',
		type: 'boolean',
		default: true,
		displayOptions: { show: { transferType: [BANK] } },
		description:
			'Whether to run a name enquiry first and stop, sending nothing, when the name the bank returns differs from Beneficiary Account Name (ignoring case and spacing). Turned off, a mistyped account number pays whoever holds it.',
		hint: "Compares Beneficiary Account Name with the name the bank holds for this account (case and spacing ignored). To get the bank's name first: Payout → Look Up Account Name.",
	},
	{
		displayName: 'Pay From Sub-Wallet',
		name: 'fromSubWallet',
		type: 'boolean',
		default: false,
		description: 'Whether to pay from a sub-wallet instead of the main wallet of the currency',
	},
	{
		displayName: 'Sub-Wallet ID',
		name: 'walletId',
		type: 'string',
		default: '',
		required: true,
		displayOptions: { show: { fromSubWallet: [true] } },
	},
];

/**
 * Mobile money number (the spec: international format with a leading +),
 * read by the shared phone reader (rule 7): E.164, or the digits of the
 * transfer's country's code without the + (254700000000 to KE), as sent
 * before; a local number (0700000000) or another country's digits without
 * the + are refused, naming the form to write.
 */
const momoNumber = (country: string | undefined) => phone({ country, lead: 'must be a phone number in international format' });

/** The one country of a currency (PayOnUs' markets), for an empty Country Code. USD has none. */
export const COUNTRY_OF_CURRENCY: Record<string, string | undefined> = { NGN: 'NG', KES: 'KE', GHS: 'GH', ZAR: 'ZA' };

const schema = z
	.object({
		transferType: oneOf(TRANSFER_TYPES),
		businessId: businessIdInput(),
		amount: amount(),
		currency: currency(),
		countryCode: optional(countryCode()),
		reference: reference(),
		beneficiaryBankCode: optionalText(20),
		eftBank: optionalText(20),
		beneficiaryAccountNumber: z.unknown(),
		momoNetwork: optionalText(50),
		beneficiaryPhoneNumber: z.unknown(),
		beneficiaryAccountName: bankText(TEXT_LIMITS.name),
		narration: bankText(TEXT_LIMITS.narration),
		email: optional(email()),
		verifyBeneficiaryName: optional(bool()),
		fromSubWallet: optional(bool()),
		walletId: optional(identifier('WAL-1')),
	})
	.superRefine((v, ctx) => {
		const need = (field: string, present: unknown) => {
			if (present === undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'is required' });
		};
		const check = (field: string, s: z.ZodTypeAny, value: unknown) => {
			const r = s.safeParse(value);
			if (!r.success) ctx.addIssue({ ...r.error.issues[0], path: [field] } as z.IssueData);
		};
		if (v.transferType === BANK) {
			need('beneficiaryBankCode', v.beneficiaryBankCode);
			check('beneficiaryAccountNumber', accountNumber(), v.beneficiaryAccountNumber);
		} else if (v.transferType === EFT) {
			need('eftBank', v.eftBank);
			check('beneficiaryAccountNumber', accountNumber(), v.beneficiaryAccountNumber);
		} else {
			need('momoNetwork', v.momoNetwork);
			check('beneficiaryPhoneNumber', momoNumber(v.countryCode ?? COUNTRY_OF_CURRENCY[v.currency]), v.beneficiaryPhoneNumber);
		}
		if (v.fromSubWallet === true) need('walletId', v.walletId);
		if (v.countryCode === undefined && COUNTRY_OF_CURRENCY[v.currency] === undefined) {
			ctx.addIssue({ code: 'custom', path: ['countryCode'], message: `is required for ${v.currency}: no single country uses it` });
		}
	})
	.transform((v) => ({
		...v,
		countryCode: v.countryCode ?? (COUNTRY_OF_CURRENCY[v.currency] as string),
		beneficiaryAccountNumber:
			v.transferType === MOMO
				? (momoNumber(v.countryCode ?? COUNTRY_OF_CURRENCY[v.currency]).parse(v.beneficiaryPhoneNumber) as string)
				: (accountNumber().parse(v.beneficiaryAccountNumber) as string),
	}));

/** What makes it move money: the call, its proof, its lookup and its body (the schema above read every value). */
export const bankTransfer = {
	path: PATHS.bankTransfer,
	// Response data: paymentStatus, currency, amount, fee, onusReference, merchantReference.
	proof: { kind: 'transfer', types: ['TRNF'], answer: ['reference', 'amount', 'currency'], record: TRANSFER_RECORD },
	lookup: 'transfers',
	body: z.object({
		transferType: oneOf(TRANSFER_TYPES),
		amount: amount(),
		currency: currency(),
		countryCode: countryCode(),
		reference: reference(),
		narration: bankText(TEXT_LIMITS.narration),
		businessId: businessIdInput(),
		/** The account number, or the mobile money number in international format (read by the schema above). */
		beneficiaryAccountNumber: z.string(),
		beneficiaryAccountName: bankText(TEXT_LIMITS.name),
		beneficiaryBankCode: optionalText(20),
		eftBank: optionalText(20),
		momoNetwork: optionalText(50),
		email: optional(email()),
		fromSubWallet: optional(bool()),
		walletId: optional(identifier('WAL-1')),
	}),
} satisfies MoneyCall;

export const createTransfer: PayOnUsOperation<typeof schema> = {
	value: 'createTransfer',
	name: 'Create Transfer',
	action: 'Create a transfer',
	description:
		'Pay money out of a business wallet to a bank account, a mobile money number or a South African bank by EFT (moves money). Needs a reference unique for the business. Returns the transfer (onusReference, paymentStatus, amount, fee), usually PENDING until the bank settles it.',
	properties,
	schema,
	effect: 'movesMoney',
	money: {
		direction: 'out',
		// The dry run reports the name check as a check of its own (not a stop).
		dryRunInput: (input) => ({ ...input, verifyBeneficiaryName: false }),
	},
	moneyCall: bankTransfer,
	// An empty Country Code takes the currency's country (an expression giving nothing is an error instead).
	defaultsWhenEmpty: { countryCode: 'the country of the currency' },
	paging: false,
	aggregatesItems: itemByItem,
	async execute(ctx: OperationContext, input) {
		const { client } = ctx;
		const { businessId } = input;
		// The lookup needs the merchant; refuse before paying rather than be
		// unable to check a lost answer later.
		const merchantId = resolveMerchantId(client, undefined, 'to check a transfer by its reference after a lost answer');

		let nameCheck: IDataObject | undefined;
		if (input.transferType === BANK && input.verifyBeneficiaryName === true) {
			const found = await enquireName(client, {
				institutionCode: input.beneficiaryBankCode as string,
				accountNumber: input.beneficiaryAccountNumber,
				businessId,
				currency: input.currency,
			});
			const bankName = typeof found?.accountName === 'string' ? found.accountName : '';
			if (!namesMatch(bankName, input.beneficiaryAccountName)) {
				throw new PayOnUsInputError(
					'beneficiaryAccountName',
					`does not match the name on the account, nothing was sent: the bank says account ${input.beneficiaryAccountNumber} ` +
						`belongs to "${bankName}", the transfer names "${input.beneficiaryAccountName}" ` +
						'(names are compared ignoring case and spacing)',
				);
			}
			nameCheck = { matched: true, accountName: bankName, bankName: found.bankName };
		}

		const body: IDataObject = {
			transferType: input.transferType,
			amount: input.amount,
			currency: input.currency,
			countryCode: input.countryCode,
			reference: input.reference,
			narration: input.narration,
			businessId,
			beneficiaryAccountNumber: input.beneficiaryAccountNumber,
			beneficiaryAccountName: input.beneficiaryAccountName,
		};
		if (input.transferType === BANK) body.beneficiaryBankCode = input.beneficiaryBankCode;
		if (input.transferType === EFT) body.eftBank = input.eftBank;
		if (input.transferType === MOMO) body.momoNetwork = input.momoNetwork;
		if (input.email !== undefined) body.email = input.email;
		if (input.fromSubWallet === true) {
			body.fromSubWallet = true;
			body.walletId = input.walletId;
		}

		// A reference already holding this very transfer (same amount, currency and beneficiary) is a
		// success marked outcome "alreadyDone", the existing transfer, as idempotency keys behave
		// elsewhere; a reference held by a different request stays an error.
		const result = await sendMoney<IDataObject>(client, bankTransfer, { body }, () => ({
			...moneyMoving(
				client,
				referenceSource(bankTransfer, merchantId)!,
				businessId,
				input.reference,
				{ amount: input.amount, currency: input.currency, beneficiaryAccount: input.beneficiaryAccountNumber },
				'transfer',
			),
			onDuplicate: 'returnExisting',
		}));
		const transfer = toTransfer(result);
		if (transfer.duplicateReference === true) transfer.outcome = 'alreadyDone';
		return nameCheck ? { ...transfer, nameCheck } : transfer;
	},
};
