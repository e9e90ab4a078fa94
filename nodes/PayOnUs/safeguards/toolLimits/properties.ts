import type { INodeProperties } from 'n8n-workflow';
import { CURRENCIES } from '../../../shared/validation';
import { CURRENCY_LIMIT_DEFAULTS, CURRENCY_LIMIT_NAMES, type CurrencyLimit } from './limits';

/**
 * The tool's parameters. n8n shows a parameter whose displayOptions say
 * `'@tool': [true]` only on the node's tool type (`<name>Tool`, see
 * ./index.ts); the limits only once money movement is allowed.
 */

const TOOL_ONLY = { '@tool': [true] };
const WHEN_ALLOWED = { '@tool': [true], toolAllowMoneyMovement: [true] };

/**
 * The parameter of one limit of a currency (a Spending Limits row:
 * `<limit>`): its name and default are CURRENCY_LIMIT_NAMES' and
 * CURRENCY_LIMIT_DEFAULTS'.
 */
function limitParameter(limit: keyof CurrencyLimit, name: string, description: string): INodeProperties {
	const fallback = CURRENCY_LIMIT_DEFAULTS[limit];
	return {
		displayName: CURRENCY_LIMIT_NAMES[limit],
		name,
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: fallback,
		noDataExpression: true,
		description,
	};
}

export function toolLimitProperties(): INodeProperties[] {
	return [
		{
			displayName:
				'As an AI agent tool, operations that move money (transfers, bulk transfers, card and mobile money charges, EFT payments) are refused unless allowed below, and then only within these limits. A refused call sends nothing and tells the agent why.',
			name: 'toolMoneyNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: TOOL_ONLY },
		},
		{
			displayName: 'Allow Money-Moving Operations',
			name: 'toolAllowMoneyMovement',
			type: 'boolean',
			default: false,
			noDataExpression: true,
			displayOptions: { show: TOOL_ONLY },
			description: 'Whether the agent may run operations that move money, within the limits below. Off: every such call is refused and nothing is sent.',
		},
		{
			displayName: 'Spending Limits',
			name: 'toolSpendingLimits',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Currency',
			default: {},
			displayOptions: { show: WHEN_ALLOWED },
			description:
				'The limits of each currency the agent may move money in, in that currency. A call in a currency without a row here is refused. None: every money-moving call is refused.',
			options: [
				{
					displayName: 'Currency',
					name: 'limit',
					values: [
						{
							displayName: 'Currency',
							name: 'currency',
							type: 'options',
							options: CURRENCIES.map((c) => ({ name: c, value: c })),
							default: 'NGN',
							noDataExpression: true,
							description: 'The currency these limits are in (each currency once)',
						},
						limitParameter(
							'maxAmountPerCall',
							'maxAmountPerCall',
							'Largest amount of one call in this currency (a bulk batch: its total). Larger calls are refused.',
						),
						limitParameter(
							'maxTotalPerExecution',
							'maxTotalPerExecution',
							'Largest total in this currency of all calls of one workflow execution (every call sent counts, whatever its outcome). Calls from an MCP client (MCP Server Trigger) have no execution of their own: they need Max Total per Window.',
						),
						limitParameter(
							'maxTotalPerWindow',
							'maxTotalPerWindow',
							"Largest total in this currency of this node's calls in this workflow over the last Window (Minutes), whichever execution, agent or MCP client they come from. 0: no window limit, and calls from an MCP client are refused. Counted by each n8n process.",
						),
					],
				},
			],
		},
		{
			displayName: 'Window (Minutes)',
			name: 'toolWindowMinutes',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 60,
			noDataExpression: true,
			displayOptions: { show: WHEN_ALLOWED },
			description: 'The time window of Max Total per Window (of every currency), in minutes (a sliding window: calls older than this stop counting)',
		},
		{
			displayName: 'Allowed Beneficiaries',
			name: 'toolAllowedBeneficiaries',
			type: 'string',
			default: '',
			noDataExpression: true,
			placeholder: '9999991112, 254700000000',
			displayOptions: { show: WHEN_ALLOWED },
			description:
				'Account numbers or phone numbers transfers may pay (every row of a bulk batch), separated by commas, spaces or new lines; a leading + is ignored. Empty: any beneficiary. Charges and collections have no beneficiary and are not checked against it.',
		},
	];
}
