import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

export type Params = Record<string, unknown>;

/**
 * A minimal IExecuteFunctions for the action node: the input `items`,
 * per-item parameters (like n8n resolving expressions) and continueOnFail.
 */
export function fakeExecuteContext(items: IDataObject[], params: (i: number) => Params, continueOnFail = false): IExecuteFunctions {
	return {
		getInputData: () => items.map((json) => ({ json })),
		getNodeParameter: (name: string, i: number, fallback?: unknown) => {
			const p = params(i);
			return name in p ? p[name] : fallback;
		},
		continueOnFail: () => continueOnFail,
		getNode: () => ({ name: 'PayOnUs', type: 'n8n-nodes-payonus.payOnUs', typeVersion: 1, parameters: {}, id: '1', position: [0, 0] }),
		helpers: {},
	} as unknown as IExecuteFunctions;
}
