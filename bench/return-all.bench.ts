/**
 * `npm run bench -- return-all [--sizes=2500,5000,10000] [--no-transfers]`
 *
 * "Return All" in a real n8n against the sandbox: List Payments (zero-based
 * page/size paging) over 2,500, 5,000 and 10,000 payment requests, and Search
 * Transfers (pageNo/pageSize paging, the payout helper's operation) over as
 * many transfers. For each size: the node's time, the execution wall time,
 * and the memory of the n8n main process (peak RSS sampled every 25 ms during
 * the run, minus the RSS just before; and VmHWM after), to show time and
 * memory grow linearly with the record count (per-1,000 figures side by side).
 *
 * The sandbox has no bulk-seeding control route, so records are created
 * through the API with undici (16 in flight) before each size is measured.
 */
import { readFileSync } from 'node:fs';
import type { IDataObject } from 'n8n-workflow';
import { Pool } from 'undici';
import { startSandbox } from '../sandbox/server';
import { manualWorkflow } from '../dev/workflows';
import { sandboxAccessToken } from '../dev/sandboxCredential';
import { startN8n, type N8nInstance, type WorkflowJson } from '../dev/n8n';
import { benchCredential, inParallel, nodeRun } from './common';

export const description = 'Return All over 2,500 / 5,000 / 10,000 payment requests (and transfers): time and n8n memory';

const NODE = 'Node';

function kb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
	const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
	return m ? Number(m[1]) : 0;
}

function workflow(name: string, node: IDataObject): WorkflowJson {
	return manualWorkflow(name, [{ name: NODE, ...node }]);
}

async function measure(n8n: N8nInstance, pid: number, id: string, expected: number) {
	const before = kb(pid, 'VmRSS');
	let peak = before;
	const timer = setInterval(() => {
		peak = Math.max(peak, kb(pid, 'VmRSS'));
	}, 25);
	const started = performance.now();
	let execution;
	try {
		execution = await n8n.runWorkflow(id, { timeoutMs: 900000 });
	} finally {
		clearInterval(timer);
	}
	const roundTripMs = performance.now() - started;
	const { executionTime, output } = nodeRun(execution, NODE, expected);
	return {
		records: output.length,
		nodeMs: executionTime ?? 0,
		roundTripMs: Math.round(roundTripMs),
		rssBeforeMb: Math.round(before / 1024),
		peakRssGrowthMb: Math.round((peak - before) / 1024),
		vmHwmMb: Math.round(kb(pid, 'VmHWM') / 1024),
	};
}

export async function run(args: string[]): Promise<Record<string, unknown>> {
	const sizes = (args.find((a) => a.startsWith('--sizes='))?.split('=')[1] ?? '2500,5000,10000').split(',').map(Number);
	const withTransfers = !args.includes('--no-transfers');
	const sandbox = await startSandbox({ port: 0, config: { requestLogLimit: 200, transferDelayMs: 0 } });
	const n8n = await startN8n({ db: 'sqlite' });
	const pool = new Pool(sandbox.url, { connections: 16 });
	try {
		const main = n8n.processes().find((p) => p.name === 'main');
		if (!main) throw new Error('no n8n main process id');
		const token = await sandboxAccessToken(sandbox.url, 3);
		const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
		const post = async (path: string, body: IDataObject) => {
			const res = await pool.request({ method: 'POST', path, headers, body: JSON.stringify(body) });
			const json = (await res.body.json()) as IDataObject;
			if (res.statusCode !== 200) throw new Error(`seeding ${path}: ${res.statusCode} ${JSON.stringify(json).slice(0, 300)}`);
		};
		const seed = async (from: number, to: number, one: (i: number) => Promise<void>) =>
			await inParallel(to - from, 16, async (i) => await one(from + i));
		const payin = async (i: number) =>
			await post('/api/v1/virtual-accounts/dynamic', {
				amount: 100 + (i % 50),
				reference: `ra-${i}`,
				businessId: 'BUS-2001',
				customer: { name: `Customer ${i}`, email: `c${i}@example.com` },
			});
		let bankCode = '044';
		const transfer = async (i: number) =>
			await post('/api/v1/transfer-requests/bank-transfer', {
				amount: 1,
				beneficiaryAccountNumber: '9999991112',
				beneficiaryAccountName: 'Sandbox Beneficiary',
				beneficiaryBankCode: bankCode,
				transferType: 'WALLET_TO_BANK_ACCOUNT',
				countryCode: 'NG',
				currency: 'NGN',
				reference: `rt-${i}`,
				narration: 'bench',
				businessId: 'BUS-2002',
			});

		const credentials = await benchCredential(n8n, sandbox.url);
		/** A workflow whose PayOnUs node runs `parameters` with Return All. */
		const returnAllWorkflow = async (name: string, parameters: IDataObject): Promise<string> => {
			const node = { type: 'n8n-nodes-payonus.payOnUs', typeVersion: 1, credentials, parameters: { ...parameters, returnAll: true, filters: {} } };
			return (await n8n.createWorkflow(workflow(name, node))).id;
		};
		const listPayments = await returnAllWorkflow('bench: list payments, return all', { resource: 'payin', operation: 'listPayments' });
		const searchTransfers = await returnAllWorkflow('bench: search transfers, return all', { resource: 'payout', operation: 'searchTransfers', merchantId: 'MER-1001' });

		let transfersNote = withTransfers ? 'measured' : 'skipped (--no-transfers)';
		if (withTransfers) {
			try {
				const banks = await pool.request({ method: 'GET', path: '/api/v1/banks?key=NGN', headers });
				const list = ((await banks.body.json()) as { data?: Array<{ code: string }> }).data ?? [];
				if (list[0]?.code) bankCode = list[0].code;
				await transfer(-1);
			} catch (error) {
				transfersNote = `skipped: ${(error as Error).message}`;
			}
		}
		const extraTransfer = transfersNote === 'measured' ? 1 : 0;

		const rows: IDataObject[] = [];
		let seededPayins = 0;
		let seededTransfers = 0;
		for (const size of sizes) {
			const t0 = performance.now();
			await seed(seededPayins, size, payin);
			seededPayins = size;
			if (transfersNote === 'measured') {
				await seed(seededTransfers, size - extraTransfer, transfer);
				seededTransfers = size - extraTransfer;
			}
			console.log(`  seeded ${size} payins${transfersNote === 'measured' ? ' and transfers' : ''} in ${Math.round(performance.now() - t0)} ms`);
			const p = await measure(n8n, main.pid, listPayments, size);
			rows.push({ operation: 'List Payments', ...p, msPer1000: Math.round((p.nodeMs * 1000) / size), mbPer1000: Number(((p.peakRssGrowthMb * 1000) / size).toFixed(1)) });
			console.log('  ', rows[rows.length - 1]);
			if (transfersNote === 'measured') {
				const t = await measure(n8n, main.pid, searchTransfers, size);
				rows.push({ operation: 'Search Transfers', ...t, msPer1000: Math.round((t.nodeMs * 1000) / size), mbPer1000: Number(((t.peakRssGrowthMb * 1000) / size).toFixed(1)) });
				console.log('  ', rows[rows.length - 1]);
			}
		}
		console.table(rows);
		const linearity: IDataObject = {};
		for (const op of ['List Payments', 'Search Transfers']) {
			const r = rows.filter((x) => x.operation === op);
			if (r.length < 2) continue;
			const first = r[0];
			const last = r[r.length - 1];
			linearity[op] = {
				recordsRatio: Number(((last.records as number) / (first.records as number)).toFixed(2)),
				timeRatio: Number(((last.nodeMs as number) / (first.nodeMs as number)).toFixed(2)),
				peakRssGrowthRatio: Number(((last.peakRssGrowthMb as number) / Math.max(1, first.peakRssGrowthMb as number)).toFixed(2)),
			};
		}
		console.log('  linearity (largest / smallest):', JSON.stringify(linearity));
		return { sizes, transfers: transfersNote, rows, linearity };
	} finally {
		await pool.close();
		await n8n.stop();
		await sandbox.stop();
	}
}
