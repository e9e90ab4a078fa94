import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { CREDENTIAL_TEST_METHODS } from '../shared/accessToken/credentialTest';
import { listSearch, loadOptions } from '../shared/methods';
import { buildProperties } from './properties';
import { buildSubtitle } from './resources';
import { runOperation } from './run';

/**
 * The PayOnUs action node: metadata, credential, the properties built from
 * the registry of operations (./properties.ts over ./resources), the
 * dropdown loaders (../shared/methods); execute() runs the chosen operation over the
 * items (./run).
 */

export { MONEY_MOVING_CONCURRENCY_DEFAULT, MONEY_MOVING_CONCURRENCY_MAX } from './run/concurrency';

export class PayOnUs implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'PayOnUs',
		name: 'payOnUs',
		icon: { light: 'file:payonus.svg', dark: 'file:payonus.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: buildSubtitle(),
		description:
			'Collect payments (virtual accounts, cards, mobile money, EFT), pay out from wallets and charge stored cards with PayOnUs',
		defaults: {
			name: 'PayOnUs',
		},
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: [
			{
				name: 'payOnUsApi',
				required: true,
				// The credential's test (it always checks the form's values with a fresh token).
				testedBy: 'payOnUsApiTest',
			},
		],
		properties: buildProperties(),
	};

	methods = { loadOptions, listSearch, credentialTest: CREDENTIAL_TEST_METHODS };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperation(this);
	}
}
