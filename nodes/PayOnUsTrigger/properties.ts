import type { INodeProperties } from 'n8n-workflow';
import { onlyBusinessIdsOption, PAYMENT_STATUS_OPTIONS } from '../shared/triggerOptions';
import { simplifyProperty } from '../shared/triggerSimplify';
import { DEFAULT_STATUSES } from './filter';
import { EVENTS } from './notification';

/** The guide to one Webhook URL per environment, the receiving workflow and going live. */
export const GOING_LIVE_URL = 'https://github.com/n8n-nodes-payonus/n8n-nodes-payonus/blob/main/docs/going-live.md';

const ONLY_BUSINESS_IDS =
	"Comma-separated business IDs; notifications for other businesses are answered and ignored. With Confirm With the Service on, the business is the service's (the notification's businessId is not signed).";

/** The node's parameters (names and defaults are public: saved workflows hold them). */
export const triggerProperties: INodeProperties[] = [
	{
		displayName: `In the PayOnUs dashboard (Test Mode on for the sandbox), paste this node's Production URL as the Webhook URL and set a Webhook Verification Key, the same one as in the credential. The dashboard takes one Webhook URL per environment: use one PayOnUs Trigger per environment and hand its events to your other workflows (<a href="${GOING_LIVE_URL}" target="_blank">Going live</a>).`,
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: [],
		description: 'Which notifications start the workflow; others are answered and ignored',
		options: [
			{
				name: 'Card Tokenization Link Completed',
				value: EVENTS.cardTokenizationLinkCompleted,
				description: 'A customer stored a card through a consent link (not signed by PayOnUs)',
			},
			{
				name: 'Collection',
				value: EVENTS.collection,
				description: 'A payin was confirmed (signed)',
			},
			{
				name: 'Payout',
				value: EVENTS.payout,
				description: 'A payout reached its final status (signed)',
			},
			{
				name: 'Refund Completed',
				value: EVENTS.refund,
				description: 'A bank transfer refund completed (signed like a payout)',
			},
		],
	},
	{
		displayName: 'Statuses',
		name: 'statuses',
		type: 'multiOptions',
		default: [...DEFAULT_STATUSES],
		displayOptions: { show: { events: [EVENTS.collection, EVENTS.payout, EVENTS.refund] } },
		description:
			'Start only for Collection, Payout and Refund notifications with these statuses; others are answered and ignored. Successful only by default, so a workflow that pays out on a collection never starts on a pending or failed one. Add Failed to act on failed payouts.',
		options: PAYMENT_STATUS_OPTIONS,
	},
	{
		displayName: 'Confirm Tokenization Through the API',
		name: 'confirmTokenization',
		type: 'boolean',
		default: true,
		displayOptions: { show: { events: [EVENTS.cardTokenizationLinkCompleted] } },
		description:
			'Whether to fetch the link from PayOnUs before starting the workflow (one API call per tokenization notification). PayOnUs does not sign these notifications; the workflow starts only if the link is COMPLETED for the same business (and the same card token when it can be read: with a Merchant ID). Turned off, anyone who knows the URL can start the workflow with a made-up link and card token.',
	},
	{
		displayName: 'Confirm With the Service',
		name: 'confirmWithService',
		type: 'boolean',
		default: true,
		displayOptions: { show: { events: [EVENTS.collection, EVENTS.payout] } },
		description:
			"Whether to re-read each Collection or Payout from PayOnUs by its onusReference (one or two API calls) and emit the service's amount, currency, business and status. PayOnUs signs only accountNumber, onusReference and paymentStatus: turned off, the amount, currency, business and type of the item are as received, unsigned. Events the service does not confirm (record missing, another status, service unreachable) go to the Unconfirmed output (the second one).",
	},
	{
		displayName: 'Merchant ID',
		name: 'merchantId',
		type: 'string',
		default: '',
		placeholder: 'MER-1001',
		displayOptions: { show: { events: [EVENTS.payout, EVENTS.cardTokenizationLinkCompleted] } },
		description:
			"Needed to read transfers (Payout confirmation) and to check the card token of a tokenization link. Empty: the credential's Default Merchant ID.",
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [onlyBusinessIdsOption(ONLY_BUSINESS_IDS)],
	},
	{
		displayName: 'Test Event',
		name: 'testEvent',
		type: 'options',
		default: 'latestPayment',
		description:
			'What Listen for Test Event shows. PayOnUs sends notifications only to the Production URL, so by default the node sends itself your most recent successful payment (read from PayOnUs, nothing is paid) exactly as PayOnUs would notify it.',
		options: [
			{
				name: 'Most Recent Payment',
				value: 'latestPayment',
				description: 'Your latest payin (Collection) or payout, delivered to the Test URL like a real notification',
			},
			{
				name: 'Wait for PayOnUs',
				value: 'wait',
				description: 'Only what arrives at the Test URL (for example a notification sent there by hand)',
			},
		],
	},
	simplifyProperty('each event'),
];
