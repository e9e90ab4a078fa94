import type { INodeProperties } from 'n8n-workflow';
import { businessIdField } from '../shared/methods/businessField';
import { simplifyProperty } from '../shared/triggerSimplify';
import { PAGE_METHODS } from './methods';
import { DEFAULT_LIMITS, type DoorLimits, LIMIT_NAMES, MAX_LIMIT } from './request/bounds';

/** An Option of rule 4's limits: its name, default and highest value are request/bounds.ts's. */
function limitOption(name: keyof DoorLimits, description: string): INodeProperties {
	const fallback = DEFAULT_LIMITS[name];
	return {
		displayName: LIMIT_NAMES[name],
		name,
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_LIMIT, numberPrecision: 0 },
		default: fallback,
		description,
	};
}

/** The node's parameters (names and defaults are public: saved workflows hold them). */
export const paymentPageProperties: INodeProperties[] = [
	{
		displayName:
			"Webhook URLs (above), Production URL: share the first one (GET: the page) with your customers once the workflow is published. The same URL without GET takes the page's own forms; the one ending in /notify is for buyers who close the tab (your receiving workflow forwards PayOnUs's notification there: Docs, \"Buyers who close the tab\"). To try the page before publishing: Execute step, then open the Test URL.",
		name: 'urlNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName:
			"With a Sandbox credential (or the local sandbox) the page says TEST MODE: no real money moves, and bank transfer, mobile money and EFT offer \"Simulate the customer paying\" (card: the sandbox's test cards). The workflow starts once per payment PayOnUs confirms, never on the browser's word, with one item: amount and currency (the price paid; the fee comes off settlementAmount, shown with Simplify off), customerEmail, merchantCheckoutReference (one per sale: key your records on it), onusReference, paymentMethod.",
		name: 'paidItemNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Path',
		name: 'path',
		type: 'string',
		default: '',
		placeholder: 'e.g. pay-for-tickets',
		description: 'Last part of the page URL. Leave empty for a random one.',
	},
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Concert ticket',
		description: 'Heading of the page: what the customer pays for',
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		description: 'Text under the title',
	},
	businessIdField({
		description:
			"The business that receives the money. Leave empty to use the credential's Default Business ID.",
	}),
	{
		displayName: 'Currency',
		name: 'currency',
		type: 'options',
		default: 'NGN',
		description:
			'Currency of the payment; the business needs a wallet in it. It decides which methods can be offered.',
		options: [
			{ name: 'GHS (Mobile Money)', value: 'GHS' },
			{ name: 'KES (Mobile Money, Card)', value: 'KES' },
			{ name: 'NGN (Bank Transfer, Card)', value: 'NGN' },
			{ name: 'USD (Card)', value: 'USD' },
			{ name: 'ZAR (EFT, Mobile Money, Card)', value: 'ZAR' },
		],
	},
	{
		displayName: 'Amount',
		name: 'amountMode',
		type: 'options',
		default: 'fixed',
		options: [
			{
				name: 'Fixed',
				value: 'fixed',
				description: 'The same amount for everyone',
			},
			{
				name: 'Chosen by the Customer',
				value: 'customer',
				description: 'Within a minimum and a maximum',
			},
		],
	},
	{
		displayName: 'Amount Value',
		name: 'amount',
		type: 'number',
		typeOptions: { minValue: 0.01, numberPrecision: 2 },
		default: 1000,
		displayOptions: { show: { amountMode: ['fixed'] } },
		description: 'Amount to pay, in the currency above',
	},
	{
		displayName: 'Minimum Amount',
		name: 'minAmount',
		type: 'number',
		typeOptions: { minValue: 0.01, numberPrecision: 2 },
		default: 100,
		displayOptions: { show: { amountMode: ['customer'] } },
	},
	{
		displayName: 'Maximum Amount',
		name: 'maxAmount',
		type: 'number',
		typeOptions: { minValue: 0.01, numberPrecision: 2 },
		default: 100000,
		displayOptions: { show: { amountMode: ['customer'] } },
	},
	{
		displayName: 'Payment Methods',
		name: 'methods',
		type: 'multiOptions',
		default: ['bank', 'card'],
		description: 'Methods to offer; each is shown only where the currency allows it',
		// Each method's option (./methods/, listed by name); then the parameters the methods need.
		options: [...PAGE_METHODS]
			.sort((a, b) => a.option.name.localeCompare(b.option.name))
			.map((m) => ({ name: m.option.name, value: m.id, description: m.option.description })),
	},
	...PAGE_METHODS.flatMap((m) => m.properties),
	{
		displayName: 'Ask Name',
		name: 'askName',
		type: 'options',
		default: 'optional',
		options: [
			{ name: 'No', value: 'no' },
			{ name: 'Optional', value: 'optional' },
			{ name: 'Required', value: 'required' },
		],
		description: "Whether the page asks the customer's name (the email is always asked)",
	},
	{
		displayName: 'Ask Phone',
		name: 'askPhone',
		type: 'options',
		default: 'no',
		options: [
			{ name: 'No', value: 'no' },
			{ name: 'Optional', value: 'optional' },
			{ name: 'Required', value: 'required' },
		],
		description: "Whether the page asks the customer's phone number",
	},
	{
		displayName: 'After Payment',
		name: 'onSuccess',
		type: 'options',
		default: 'message',
		options: [
			{ name: 'Show a Message', value: 'message' },
			{ name: 'Redirect to a URL', value: 'redirect' },
		],
	},
	{
		displayName: 'Success Message',
		name: 'successMessage',
		type: 'string',
		default: 'Thank you: your payment was received.',
		displayOptions: { show: { onSuccess: ['message'] } },
	},
	{
		displayName: 'Redirect URL',
		name: 'redirectUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://shop.example.com/thanks',
		displayOptions: { show: { onSuccess: ['redirect'] } },
		description:
			'Where the customer goes once the payment is confirmed (merchantCheckoutReference is added to it)',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Checkout Expiry (Minutes)',
				name: 'expiryMinutes',
				type: 'number',
				typeOptions: { minValue: 0.05, maxValue: 1440, numberPrecision: 2 },
				default: 30,
				description: 'How long a checkout can be paid, from the moment the page is opened',
			},
			limitOption(
				'attemptsPerPage',
				'Payments all visitors together may start on this page per minute (rule 4: each is a mobile money prompt, a bank account, a card charge or an EFT payment in your name). Raise it for a busy sale.',
			),
			limitOption(
				'attemptsPerTarget',
				'Payments one phone number or one email address may be sent per minute on this page, whoever asks (2 lets a buyer resend a mobile money prompt once)',
			),
			limitOption(
				'attemptsPerVisitor',
				'Payments one visitor (one IP address; IPv6: one /64) may start on this page per minute',
			),
			limitOption(
				'callsPerPage',
				'PayOnUs calls all visitors of this page together may cause per minute, status checks included',
			),
			limitOption(
				'callsPerVisitor',
				'PayOnUs calls one visitor may cause per minute, status checks included (an open checkout checks its status about 20 times a minute)',
			),
			{
				displayName: 'Narration',
				name: 'narration',
				type: 'string',
				default: '',
				description: 'Text sent with each payment (defaults to the title)',
			},
			{
				displayName: 'Not Paid Output',
				name: 'notPaidOutput',
				type: 'boolean',
				default: false,
				description:
					'Whether to add a second output for failed attempts (declined card, refused mobile money or EFT) and expired checkouts, each once, as far as a request of the page sees them (a checkout nobody opens again is not looked at)',
			},
		],
	},
	simplifyProperty('each payment'),
];

