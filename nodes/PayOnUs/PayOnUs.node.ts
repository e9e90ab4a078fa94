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
		// 2: Create Transfer verifies the beneficiary name by default (1: off).
		// 3: Simplify on by default for records of more than 10 fields (1, 2: raw records, no Simplify);
		//    Create Transfer's Country Code taken from the currency when left empty.
		//    Money-Moving Concurrency 32 by default (1, 2: 1; ./run/concurrency.ts).
		// 4: a field whose expression (or $fromAI) gives nothing is never filled by a default, for every
		//    operation (1-3: money-moving and other writes only; ./run/input.ts);
		//    AI-tool spending limits per currency (Spending Limits; ./safeguards/toolLimits.ts);
		//    Create Transfer returns the existing transfer as a success (outcome "alreadyDone") when
		//    its reference already holds this same transfer (1-3: an "Already paid" error).
		version: [1, 2, 3, 4],
		defaultVersion: 4,
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
