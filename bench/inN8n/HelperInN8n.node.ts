/**
 * A reference for bench/real-network.bench.ts, never published or installed
 * for users: the floor's very call (n8n's `httpRequest`, a GET with the
 * bearer token, the node's concurrency) made by a minimal node INSIDE n8n's
 * process. The bench's n8n loads it from this folder (compiled into build/)
 * through N8N_CUSTOM_EXTENSIONS, as type `CUSTOM.helperInN8n`.
 *
 * It splits the PayOnUs node's distance to the floor in two: this node ÷ the
 * floor is what n8n's process costs a call; the PayOnUs node ÷ this node is
 * what the PayOnUs node adds over n8n's helper in the same process.
 * Not a bench itself (bench/run.ts only loads *.bench.js).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

export class HelperInN8n implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Helper in n8n (bench)',
		name: 'helperInN8n',
		group: ['transform'],
		version: 1,
		description: "n8n's httpRequest at a set concurrency, for the real-network bench",
		defaults: { name: 'Helper in n8n' },
		// 'main' (NodeConnectionTypes.Main): a value import would load the dev copy of n8n-workflow into n8n.
		inputs: ['main'] as INodeTypeDescription['inputs'],
		outputs: ['main'] as INodeTypeDescription['outputs'],
		properties: [
			{ displayName: 'URL', name: 'url', type: 'string', default: '', description: 'Called with ?onusReference= of each item' },
			{ displayName: 'Token', name: 'token', type: 'string', typeOptions: { password: true }, default: '' },
			{ displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 128 },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const url = this.getNodeParameter('url', 0) as string;
		const token = this.getNodeParameter('token', 0) as string;
		const concurrency = this.getNodeParameter('concurrency', 0) as number;
		const out: INodeExecutionData[] = new Array(items.length);
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const i = next++;
				const reference = String(items[i].json.onusReference);
				const body = (await this.helpers.httpRequest({
					url: `${url}?onusReference=${encodeURIComponent(reference)}`,
					method: 'GET',
					json: true,
					headers: { Authorization: `Bearer ${token}` },
				})) as { status?: unknown; data?: IDataObject };
				// The floor's check (bench/floor.ts): the envelope with status 200 and the asked record.
				if (body?.status !== 200 || body.data?.onusReference !== reference) {
					throw new Error(`GET ${url}: answered ${JSON.stringify(body).slice(0, 300)}`);
				}
				out[i] = { json: body.data, pairedItem: { item: i } };
			}
		};
		await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
		return [out];
	}
}
