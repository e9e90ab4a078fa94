import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';
import { CREDENTIAL_TEST_METHODS } from '../shared/accessToken/credentialTest';
import { simplifyItems, simplifyOn } from '../shared/triggerSimplify';
import { poll } from './poll';
import { pollProperties } from './properties';

/*
 * The PayOnUs Poll Trigger: every minute n8n asks it for what is new. This
 * file only assembles the node; poll.ts runs one poll through its steps:
 *
 *   poll.ts       settings -> read the cursor -> read the lists -> decide
 *                 what is new -> emit -> save the cursor (and Fetch Test Event)
 *   service.ts    the lists it reads (over ../shared/api)
 *   cursor.ts     what is new, and the next cursor (pure)
 *   clock.ts      "today"
 *
 * Parameters: properties.ts.
 */
export class PayOnUsPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'PayOnUs Poll Trigger',
		name: 'payOnUsPollTrigger',
		icon: { light: 'file:payonus.svg', dark: 'file:payonus.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["watch"].join(", ").replace("payins", "Payins").replace("payouts", "Payouts")}}',
		description: 'Starts the workflow for new or changed PayOnUs payins and payouts, found by polling',
		defaults: { name: 'PayOnUs Poll Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'payOnUsApi', required: true, testedBy: 'payOnUsApiTest' }],
		properties: pollProperties,
	};

	methods = { credentialTest: CREDENTIAL_TEST_METHODS };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const result = await poll(this);
		if (!result || !simplifyOn(this.getNodeParameter('simplify', true))) return result;
		return result.map((items) => simplifyItems(items));
	}
}
