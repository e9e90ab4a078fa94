/**
 * The PayOnUs Trigger's test event and the Simplify option of the two
 * triggers, in a real n8n: "Listen for test event" as the editor starts it
 * (POST /rest/workflows/:id/run with the trigger as triggerToStartFrom) gets
 * the account's latest payment within seconds, through the Test URL.
 */
import { randomUUID } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { nodeItems } from '../harness/e2e';
import { POLL_NAME, TRIGGER_NAME, pollWorkflow, triggerWorkflow } from '../../dev/workflows';
import { useTriggerSandbox } from './triggerFixtures';

jest.setTimeout(300_000);

const e2e = useTriggerSandbox('trigger-test-event');
const { n8n } = e2e;

/** Clicks "Listen for test event" on the trigger; returns the execution the test event started. */
async function listen(id: string, previous: number) {
	const workflowData = await n8n.rest<IDataObject>('GET', `/workflows/${id}`);
	const started = await n8n.rest<IDataObject>('POST', `/workflows/${id}/run`, {
		workflowData,
		triggerToStartFrom: { name: TRIGGER_NAME },
	});
	expect(started.waitingForWebhook).toBe(true);
	const t0 = Date.now();
	const executions = await n8n.waitForExecutions(id, previous + 1, 60_000);
	return { execution: executions[executions.length - 1], ms: Date.now() - t0 };
}

function trigger(tag: string, parameters: IDataObject = {}) {
	return triggerWorkflow(`test event ${tag}`, randomUUID(), e2e.credentialId, { events: ['COLLECTION'], ...parameters });
}

describe('PayOnUs Trigger: Listen for test event (real n8n, sandbox)', () => {
	it('emits the latest payment, confirmed with the service and simplified (Simplify on, its default), within seconds, and again on the next listen', async () => {
		const tag = String(Date.now());
		const payin = await e2e.sb.collection(`e2e-sample-${tag}`, 2750);
		const id = await e2e.createWorkflow(trigger(tag, { simplify: true }));

		const first = await listen(id, 0);
		const items = nodeItems(first.execution, TRIGGER_NAME, 0);
		expect(items).toHaveLength(1);
		expect(Object.keys(items[0])[0]).toBe('paymentStatus');
		expect(Object.keys(items[0]).length).toBeLessThanOrEqual(10);
		expect(items[0]).toMatchObject({
			paymentStatus: 'SUCCESSFUL',
			amount: 2750,
			currency: 'NGN',
			onusReference: payin.onusReference,
			merchantReference: `e2e-sample-${tag}`,
			event: 'COLLECTION',
			confirmed: true,
		});
		expect(first.ms).toBeLessThan(60_000);

		// Listening again brings the same payment again (the test memory does not call it a repeat).
		const second = await listen(id, 1);
		expect(nodeItems(second.execution, TRIGGER_NAME, 0)[0]).toMatchObject({ onusReference: payin.onusReference });
	});

	it('with Simplify off, the full item (every field)', async () => {
		const tag = String(Date.now());
		const payin = await e2e.sb.collection(`e2e-sample-full-${tag}`, 1900);
		const id = await e2e.createWorkflow(trigger(`${tag}-full`, { simplify: false }));
		const { execution } = await listen(id, 0);
		const [item] = nodeItems(execution, TRIGGER_NAME, 0);
		expect(item).toMatchObject({ onusReference: payin.onusReference, verified: true, verifiedBy: 'signature', confirmed: true });
		expect(item.verifiedFields).toEqual(['accountNumber', 'onusReference', 'paymentStatus']);
		expect(Object.keys(item).length).toBeGreaterThan(20);
	});
});

describe('PayOnUs Poll Trigger: Fetch Test Event with Simplify', () => {
	it('Simplify on returns the newest record simplified; off, whole', async () => {
		const tag = String(Date.now());
		const latest = await e2e.sb.unpaidPayin(`poll-simplify-${tag}`, 1234);
		const simple = pollWorkflow(`poll simplify ${tag}`, e2e.credentialId, 5, { watch: ['payins'], simplify: true });
		const full = pollWorkflow(`poll full ${tag}`, e2e.credentialId, 5, { watch: ['payins'] });
		const [simpleItem] = nodeItems(await n8n.runWorkflow(await e2e.createWorkflow(simple), { triggerName: POLL_NAME, timeoutMs: 60_000 }), POLL_NAME);
		expect(Object.keys(simpleItem).slice(0, 6)).toEqual(['paymentStatus', 'amount', 'currency', 'businessId', 'merchantReference', 'onusReference']);
		expect(Object.keys(simpleItem).length).toBeLessThanOrEqual(10);
		expect(simpleItem).toMatchObject({ onusReference: latest.onusReference, amount: 1234, resource: 'payin', change: 'test' });
		const [fullItem] = nodeItems(await n8n.runWorkflow(await e2e.createWorkflow(full), { triggerName: POLL_NAME, timeoutMs: 60_000 }), POLL_NAME);
		expect(fullItem).toMatchObject({ onusReference: latest.onusReference, resource: 'payin' });
		expect(Object.keys(fullItem).length).toBeGreaterThan(20);
	});
});
