import type { INodeProperties } from 'n8n-workflow';
import { onlyBusinessIdsOption, onlyStatusesOption, PAYMENT_STATUS_OPTIONS } from '../shared/triggerOptions';
import { simplifyProperty } from '../shared/triggerSimplify';

/** The node's parameters (names and defaults are public: saved workflows hold them). */
export const pollProperties: INodeProperties[] = [
	{
		displayName:
			'Checks PayOnUs every minute for new payins and payouts, and for ones whose status changed, and starts the workflow once for each. Use it where PayOnUs cannot reach this n8n, or next to the PayOnUs Trigger to catch a notification that never came. The first check after activation only notes what already exists. Fetch Test Event shows your most recent payment.',
		name: 'pollNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Watch',
		name: 'watch',
		type: 'multiOptions',
		required: true,
		default: ['payins', 'payouts'],
		options: [
			{ name: 'Payins (Payment Requests)', value: 'payins' },
			{ name: 'Payouts (Transfer Requests)', value: 'payouts' },
		],
	},
	{
		displayName: 'Merchant ID',
		name: 'merchantId',
		type: 'string',
		default: '',
		placeholder: 'MER-1001',
		description: "Needed to search payouts. Empty: the credential's Default Merchant ID.",
		displayOptions: { show: { watch: ['payouts'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			onlyBusinessIdsOption('Comma-separated business IDs; records of other businesses are skipped'),
			onlyStatusesOption('Emit only records in these statuses (the others are remembered, not emitted)', PAYMENT_STATUS_OPTIONS),
			{
				displayName: 'Overlap (Days)',
				name: 'overlapDays',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 7 },
				default: 1,
				description:
					'Days re-read before the latest creation day seen. The service filters by day, so at least 1; more also catches status changes of older records, at the cost of reading more.',
			},
		],
	},
	simplifyProperty('each record'),
];
