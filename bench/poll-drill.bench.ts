/**
 * `npm run bench -- poll-drill [--records=5000] [--rate=100] [--every=5] [--concurrency=8] [--restart]`
 *
 * Real n8n (SQLite) + the PayOnUs Poll Trigger on a custom cron every
 * `every` seconds (n8n 2.8.4 refuses a `*` in the cron's seconds field but
 * accepts a list such as `0,5,10,...,55 * * * * *`). While it runs, the
 * sandbox gets `records` new records (half payins left PENDING, half payouts
 * that settle SUCCESSFUL shortly after). Then it waits until everything
 * has been emitted and counts: every payin once, every payout's final status
 * once, no (record, status) twice. With `--restart` the workflow is
 * deactivated and reactivated half way (the cursor comes from static data).
 */
import type { IDataObject } from 'n8n-workflow';
import { startSandbox } from '../sandbox/server';
import { startN8n, type N8nInstance } from '../dev/n8n';
import { nodeItems } from '../dev/n8n/execution';
import { POLL_NAME, pollWorkflow } from '../dev/workflows';
import { SandboxApi } from '../dev/sandboxScenarios';
import { createCredential } from '../dev/sandboxCredential';
import { sleep } from '../dev/wait';

export const description = 'PayOnUs Poll Trigger in real n8n: 5,000 payins and payouts created while polling every 5 s, each emitted once';

const arg = (args: string[], name: string, fallback: number) =>
	Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);

async function allExecutions(n8n: N8nInstance, workflowId: string): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	let cursor: string | undefined;
	do {
		const page = await n8n.api<{ data: IDataObject[]; nextCursor?: string | null }>(
			'GET',
			`/executions?workflowId=${workflowId}&includeData=true&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
		);
		out.push(...page.data);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return out;
}

export async function run(args: string[]): Promise<Record<string, unknown>> {
	const total = arg(args, 'records', 5000);
	const every = arg(args, 'every', 5);
	const concurrency = arg(args, 'concurrency', 8);
	const restart = args.includes('--restart');
	// Paced so creation spans many polls (default 100 records/s: ~50 s, ~10 polls).
	const rate = arg(args, 'rate', 100);
	const sb = await startSandbox({ port: 0 });
	const n8n = await startN8n({ db: 'sqlite' });
	const api = new SandboxApi(sb.url);
	try {
		const credentialId = await createCredential(n8n, sb.url, 'PayOnUs poll drill');
		const tag = String(Date.now());
		await api.unpaidPayin(`pre-${tag}`); // before activation: must not be emitted
		const { id } = await n8n.createWorkflow(pollWorkflow(`poll drill ${tag}`, credentialId, every));
		await n8n.activate(id);

		const payins: string[] = [];
		const payouts: string[] = [];
		let next = 0;
		let restarted = false;
		const started = Date.now();
		const worker = async () => {
			while (next < total) {
				const i = next++;
				const due = started + (i * 1000) / rate;
				if (due > Date.now()) await sleep(due - Date.now());
				if (restart && !restarted && i >= total / 2) {
					restarted = true;
					await n8n.deactivate(id);
					await sleep(2000);
					await n8n.activate(id);
				}
				if (i % 2 === 0) payins.push(String((await api.unpaidPayin(`pd-in-${tag}-${i}`, 1000 + i)).onusReference));
				else payouts.push(String((await api.payout(`pd-out-${tag}-${i}`, 10)).onusReference));
			}
		};
		await Promise.all(Array.from({ length: concurrency }, worker));
		const createSeconds = (Date.now() - started) / 1000;
		console.log(`  created ${total} records in ${createSeconds.toFixed(1)} s`);

		const payinSet = new Set(payins);
		const payoutSet = new Set(payouts);
		let items: IDataObject[] = [];
		let executions: IDataObject[] = [];
		const done = () => {
			const seenIn = new Set(items.filter((i) => i.resource === 'payin').map((i) => String(i.onusReference)));
			const seenOut = new Set(items.filter((i) => i.resource === 'payout' && i.paymentStatus === 'SUCCESSFUL').map((i) => String(i.onusReference)));
			return payins.every((r) => seenIn.has(r)) && payouts.every((r) => seenOut.has(r));
		};
		const deadline = Date.now() + 10 * 60_000;
		while (Date.now() < deadline) {
			executions = await allExecutions(n8n, id);
			items = executions.flatMap((e) => nodeItems(e as never, POLL_NAME));
			if (done()) break;
			await sleep(every * 1000);
		}
		const allEmittedSeconds = (Date.now() - started) / 1000;
		await sleep(every * 3000); // three more polls: nothing more may come
		executions = await allExecutions(n8n, id);
		items = executions.flatMap((e) => nodeItems(e as never, POLL_NAME));

		const keyCount = new Map<string, number>();
		for (const item of items) {
			const key = `${String(item.onusReference)}|${String(item.paymentStatus)}`;
			keyCount.set(key, (keyCount.get(key) ?? 0) + 1);
		}
		const repeats = [...keyCount.values()].filter((n) => n > 1).length;
		const foreign = items.filter((i) => !payinSet.has(String(i.onusReference)) && !payoutSet.has(String(i.onusReference))).length;
		const emittedRefs = new Set(items.map((i) => String(i.onusReference)));
		const missingPayins = payins.filter((r) => !emittedRefs.has(r)).length;
		const missingPayoutFinal = payouts.filter((r) => !keyCount.has(`${r}|SUCCESSFUL`)).length;
		const payoutPendingSeen = payouts.filter((r) => keyCount.has(`${r}|PENDING`)).length;
		const report = {
			n8n: '2.8.4 (sqlite, regular mode)',
			pollEverySeconds: every,
			cron: `${Array.from({ length: Math.ceil(60 / every) }, (_, k) => k * every).join(',')} * * * * *`,
			restartHalfway: restart,
			records: { payins: payins.length, payouts: payouts.length, createSeconds, ratePerSecond: rate },
			executions: executions.length,
			itemsEmitted: items.length,
			distinctKeys: keyCount.size,
			keysEmittedMoreThanOnce: repeats,
			missingPayins,
			missingPayoutFinalStatus: missingPayoutFinal,
			payoutsAlsoEmittedWhilePending: payoutPendingSeen,
			itemsNotCreatedByTheDrill: foreign,
			secondsUntilAllEmitted: allEmittedSeconds,
		};
		console.log(JSON.stringify(report, null, 2));
		return report;
	} finally {
		await n8n.stop();
		await sb.stop();
	}
}
