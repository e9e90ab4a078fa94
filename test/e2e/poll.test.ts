/**
 * PayOnUs Poll Trigger in a real n8n: a custom cron every 5 s (once a minute on
 * n8n versions that refuse shorter intervals), payins and
 * payouts created in the sandbox while it runs; each (record, status) is
 * emitted exactly once and nothing created is missed.
 */
import type { IDataObject } from 'n8n-workflow';
import { nodeItems } from '../harness/e2e';
import { POLL_NAME, pollPeriodMs, pollWorkflow } from '../../dev/workflows';
import { useTriggerSandbox } from './triggerFixtures';
import { sleep } from '../../dev/wait';

// newer n8n polls at most once a minute: a run there waits for several polls
jest.setTimeout(420_000);
const PERIOD_MS = pollPeriodMs(5);

const e2e = useTriggerSandbox('poll');
const { n8n } = e2e;

async function emitted(workflowId: string): Promise<IDataObject[]> {
	const executions = await n8n.finishedExecutions(workflowId);
	return executions.flatMap((e) => nodeItems(e, POLL_NAME));
}

describe('PayOnUs Poll Trigger (real n8n, sandbox)', () => {
	it('emits what the sandbox created after activation, each (record, status) once', async () => {
		const tag = Date.now();
		await e2e.sb.unpaidPayin(`poll-before-${tag}`); // exists before activation: not emitted
		const id = await e2e.createWorkflow(pollWorkflow(`poll ${tag}`, e2e.credentialId, 5));
		await n8n.activate(id);

		const payins: string[] = [];
		const payouts: string[] = [];
		for (let i = 0; i < 15; i++) {
			payins.push(String((await e2e.sb.unpaidPayin(`poll-in-${tag}-${i}`)).onusReference));
			payouts.push(String((await e2e.sb.payout(`poll-out-${tag}-${i}`)).onusReference));
			if (i % 5 === 4) await sleep(3000);
		}

		// Wait until every payin (PENDING) and every payout in its final status was emitted.
		const deadline = Date.now() + Math.max(90_000, 3 * PERIOD_MS + 10_000);
		let items: IDataObject[] = [];
		const complete = () => {
			const keys = new Set(items.map((i) => `${String(i.onusReference)}|${String(i.paymentStatus)}`));
			return payins.every((r) => items.some((i) => i.onusReference === r)) && payouts.every((r) => keys.has(`${r}|SUCCESSFUL`));
		};
		while (Date.now() < deadline) {
			items = await emitted(id);
			if (complete()) break;
			await sleep(1000);
		}
		expect(complete()).toBe(true);
		await sleep(PERIOD_MS < 60_000 ? 2 * PERIOD_MS + 1000 : PERIOD_MS + 2000); // more polls: nothing new may appear
		items = await emitted(id);
		const keys = items.map((i) => `${String(i.onusReference)}|${String(i.paymentStatus)}`);
		expect(new Set(keys).size).toBe(keys.length);
		expect(items.some((i) => String(i.merchantReference ?? i.reference ?? '').startsWith(`poll-before-${tag}`))).toBe(false);
		expect(items.filter((i) => i.resource === 'payin').every((i) => payins.includes(String(i.onusReference)))).toBe(true);
		expect(items.filter((i) => i.resource === 'payout').every((i) => payouts.includes(String(i.onusReference)))).toBe(true);
	});

	it('a manual run (fetch test event) returns the newest record without moving the cursor', async () => {
		const tag = Date.now();
		const latest = await e2e.sb.unpaidPayin(`poll-manual-${tag}`);
		const id = await e2e.createWorkflow(pollWorkflow(`poll manual ${tag}`, e2e.credentialId, 5, { watch: ['payins'] }));
		const execution = await n8n.runWorkflow(id, { triggerName: POLL_NAME, timeoutMs: 60_000 });
		const items = nodeItems(execution, POLL_NAME);
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ onusReference: latest.onusReference, resource: 'payin', change: 'test' });
	});
});
