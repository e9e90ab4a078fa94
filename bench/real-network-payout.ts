/**
 * `--payout-500` of the real-network bench: at one RTT, 500 transfers with
 * the PayOnUs node (Create Transfer, its Money-Moving Concurrency), then one
 * Bulk Transfer of 500 rows (Input Items): seconds of each.
 * Not a bench itself (bench/run.ts only loads *.bench.js).
 */
import type { IDataObject } from 'n8n-workflow';
import type { SandboxClient } from '../sandbox/client';
import { itemsNode } from '../dev/workflows';
import { nodeRun } from './common';
import type { QuietRunner } from './quietRun';
import { TRANSFER_PATH } from './throughput-nodes';

const NODE = 'Node';

export interface Payout500Setup {
	/** Runs a workflow without polling n8n while it runs (./quietRun.ts). */
	quiet: QuietRunner;
	control: SandboxClient;
	credentials: { payOnUsApi: { id: string; name: string } };
	/** The PayOnUs Create Transfer node (throughput-nodes.ts). */
	payOnUsTransfer: IDataObject;
	newRefs(n: number): string[];
	inN8n(name: string, node: IDataObject, items: IDataObject[]): Promise<{ ms: number; output: IDataObject[] }>;
	checkLog(what: string, method: 'GET' | 'POST', path: string, expected: string[]): Promise<void>;
	rttMs: number;
	jitterPercent: number;
	moneyMovingConcurrency: number;
}

export async function payout500(setup: Payout500Setup): Promise<IDataObject> {
	const { quiet, control, credentials, rttMs, moneyMovingConcurrency } = setup;
	const jitterMs = Math.round((rttMs * setup.jitterPercent) / 100);
	await control.setLink({ rttMs, jitterMs });
	const list = setup.newRefs(500);
	await control.clearRequests();
	const started = Date.now();
	const one = await setup.inN8n(`rn payout500 items`, setup.payOnUsTransfer, list.map((reference) => ({ reference })));
	const itemsWall = (Date.now() - started) / 1000;
	await setup.checkLog('PayOnUs node x500', 'POST', TRANSFER_PATH, list);
	const batch = `rnbulk${Date.now().toString(36)}`;
	const bulkNode = {
		type: 'n8n-nodes-payonus.payOnUs',
		typeVersion: 1,
		credentials,
		parameters: {
			resource: 'payout',
			operation: 'bulkTransfer',
			source: 'items',
			businessId: { __rl: true, mode: 'id', value: 'BUS-2001' },
			currency: 'NGN',
			reference: batch,
		},
	};
	console.log(`  500 transfers (Create Transfer, x${moneyMovingConcurrency}) at ${rttMs} ms: ${(one.ms / 1000).toFixed(1)} s`);
	// Distinct amounts: identical rows are refused as duplicates unless "Allow Duplicate Rows" is on.
	const rowsJson = Array.from({ length: 500 }, (_, i) => ({
		beneficiaryAccountNumber: '9999991112',
		beneficiaryAccountName: 'Sandbox Success Beneficiary',
		beneficiaryBankCode: '044',
		amount: 100 + i,
		narration: 'bench',
	}));
	const bulkStarted = Date.now();
	const execution = await quiet.run('rn payout500 bulk', [itemsNode(rowsJson.map((json) => ({ json }))), { name: NODE, ...bulkNode }], 15 * 60_000);
	const bulkWall = (Date.now() - bulkStarted) / 1000;
	const bulk = nodeRun(execution, NODE, 1);
	const payout = {
		rttMs,
		jitterMs,
		transfers: 500,
		createTransferSeconds: Number((one.ms / 1000).toFixed(1)),
		createTransferExecutionSeconds: Number(itemsWall.toFixed(1)),
		createTransferConcurrency: moneyMovingConcurrency,
		bulkTransferSeconds: Number(((bulk.executionTime ?? 0) / 1000).toFixed(1)),
		bulkTransferExecutionSeconds: Number(bulkWall.toFixed(1)),
		bulkRows: (bulk.output[0] as IDataObject).totalCount ?? null,
	};
	console.log('  500 transfers:', payout);
	return payout;
}
