/**
 * Issue 14, point 5, in a real n8n: the PayOnUs Poll Trigger polling once a
 * minute (the shortest interval n8n 2.41 accepts) against sandboxes that
 * ignore the undocumented transfer filters (fromDate among them), list
 * oldest first, or cap pages at 20 records. Transfers that existed before
 * activation (FAILED ones included, created days ago) are never emitted;
 * every transfer created after it is emitted exactly once in its final status,
 * across several pages; a further poll emits nothing.
 */
import type { IDataObject } from 'n8n-workflow';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import type { ProfileName } from '../../sandbox/profiles';
import { nodeItems, sharedN8n, type N8nClient } from '../harness/e2e';
import { POLL_NAME, pollWorkflow } from '../../dev/workflows';
import { SandboxApi } from '../../dev/sandboxScenarios';
import { createCredential } from '../../dev/sandboxCredential';
import { sleep } from '../../dev/wait';

jest.setTimeout(600_000);

let n8n: N8nClient;
const sandboxes: SandboxHandle[] = [];
const workflows: string[] = [];

beforeAll(() => {
	n8n = sharedN8n();
});

afterAll(async () => {
	for (const id of workflows) await n8n.deactivate(id).catch(() => undefined);
	for (const sb of sandboxes) await sb.stop();
});

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

async function transfer(api: SandboxApi, reference: string, fail: boolean): Promise<string> {
	const t = await api.payout(reference, 100, 'BUS-2001', { fail, narration: 'poll e2e' });
	return String(t.onusReference);
}

interface Run {
	profiles: ProfileName[];
	sb: SandboxHandle;
	workflowId: string;
	old: string[];
	fresh: string[];
}

async function prepare(profiles: ProfileName[]): Promise<Run> {
	const sb = await startSandbox({ port: 0, profiles });
	sandboxes.push(sb);
	const api = new SandboxApi(sb.url);
	const credentialId = await createCredential(n8n, sb.url, `PayOnUs poll ${profiles.join('+')} ${Date.now()}`);
	const tag = `${profiles.join('-')}-${Date.now()}`;
	// Transfers made days ago, a third of them FAILED.
	const old: string[] = [];
	for (let i = 0; i < 45; i++) old.push(await transfer(api, `old-${tag}-${i}`, i % 3 === 0));
	await sleep(300); // settled (the sandbox settles after 20 ms)
	for (const [k, ref] of old.entries()) {
		const t = sb.state.transfers.get(ref) as unknown as IDataObject;
		const day = daysAgo(10 + (k % 5));
		t.createdDate = `${day} 10:00:${String(k % 60).padStart(2, '0')}`;
		t.lastUpdatedDate = t.createdDate;
	}
	const { id } = await n8n.createWorkflow(
		pollWorkflow(`poll ${tag}`, credentialId, 60, { watch: ['payouts'], pollTimes: { item: [{ mode: 'everyMinute' }] } }),
	);
	workflows.push(id);
	await n8n.activate(id); // the first poll runs now: the baseline
	await sleep(2000);
	const fresh: string[] = [];
	for (let i = 0; i < 45; i++) fresh.push(await transfer(api, `new-${tag}-${i}`, i % 3 === 0));
	return { profiles, sb, workflowId: id, old, fresh };
}

async function emitted(workflowId: string): Promise<IDataObject[]> {
	const executions = await n8n.finishedExecutions(workflowId);
	return executions.flatMap((e) => nodeItems(e, POLL_NAME));
}

function finalStatus(run: Run, ref: string): string {
	return String((run.sb.state.transfers.get(ref) as unknown as IDataObject).paymentStatus);
}

describe('PayOnUs Poll Trigger, one poll a minute, under sandbox profiles (real n8n)', () => {
	it('never emits older transfers, emits each new one once in its final status, over several pages', async () => {
		const runs = await Promise.all(
			([['ignores-undocumented-filters'], ['oldest-first'], ['strict-paging'], ['ignores-undocumented-filters', 'oldest-first', 'strict-paging']] as ProfileName[][]).map(
				async (p) => await prepare(p),
			),
		);
		const complete = (run: Run, items: IDataObject[]) => {
			const keys = new Set(items.map((i) => `${String(i.onusReference)}|${String(i.paymentStatus)}`));
			return run.fresh.every((ref) => keys.has(`${ref}|${finalStatus(run, ref)}`));
		};
		const deadline = Date.now() + 180_000;
		const results = new Map<Run, IDataObject[]>();
		while (Date.now() < deadline) {
			for (const run of runs) results.set(run, await emitted(run.workflowId));
			if (runs.every((run) => complete(run, results.get(run)!))) break;
			await sleep(5000);
		}
		for (const run of runs) {
			const items = results.get(run)!;
			expect([run.profiles.join('+'), complete(run, items)]).toEqual([run.profiles.join('+'), true]);
		}
		// One more poll for each: nothing new, nothing old.
		const counts = new Map(runs.map((run) => [run, results.get(run)!.length]));
		await sleep(65_000);
		for (const run of runs) {
			const items = await emitted(run.workflowId);
			const name = run.profiles.join('+');
			expect([name, items.length]).toEqual([name, counts.get(run)]);
			const refs = items.map((i) => String(i.onusReference));
			expect([name, refs.filter((r) => run.old.includes(r))]).toEqual([name, []]);
			const keys = items.map((i) => `${String(i.onusReference)}|${String(i.paymentStatus)}`);
			expect([name, keys.length - new Set(keys).size]).toEqual([name, 0]);
			expect([name, refs.every((r) => run.fresh.includes(r))]).toEqual([name, true]);
			expect(items.filter((i) => i.paymentStatus === 'FAILED').length).toBeGreaterThan(0);
			for (const item of items) expect(item).toMatchObject({ resource: 'payout', amount: 100 });
		}
	});
});
