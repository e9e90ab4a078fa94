/**
 * Issue 36, rule 3 for card tokenization, in a real n8n restarted on the same
 * database: a card tokenization completion is Confirmed at its first
 * delivery; delivered again after the trigger's memory let it go (more
 * events than the keys static data carries over a restart, PERSISTED_KEYS),
 * it goes to Unconfirmed ("may have been handled already"), never Confirmed
 * again: its card token's createdDate, read back from the service, dates it
 * against the memory's horizon. A completion made after the restart is
 * Confirmed. On main before this change the replay was Confirmed a second
 * time (the card-on-file workflow ran twice).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { nodeItems, startN8n, type N8nInstance } from '../../dev/n8n';
import { sleep, until } from '../../dev/wait';
import { KEY, createCredential, notificationHash } from '../../dev/sandboxCredential';
import { SandboxApi } from '../../dev/sandboxScenarios';
import { TRIGGER_NAME, triggerWorkflow } from '../../dev/workflows';

jest.setTimeout(900_000);

/** More than the keys the trigger keeps in static data (nodes/PayOnUsTrigger/claim.ts PERSISTED_KEYS = 50). */
const PAST_PERSISTED = 52;

async function post(url: string, body: IDataObject, signed: boolean): Promise<{ status: number; body: IDataObject }> {
	const headers: Record<string, string> = { 'content-type': 'text/plain', ...(signed ? { hash: notificationHash(body) } : {}) };
	const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
	return { status: res.status, body: (await res.json().catch(() => ({}))) as IDataObject };
}

let sb: SandboxHandle;
let n8n: N8nInstance | undefined;
const folder = mkdtempSync(join(tmpdir(), 'payonus-tokenization-replay-'));

beforeAll(async () => {
	sb = await startSandbox({ port: 0 });
});
afterAll(async () => {
	await n8n?.stop();
	await sb?.stop();
	rmSync(folder, { recursive: true, force: true });
});

describe('PayOnUs Trigger: a card tokenization completion replayed after the memory let it go (rule 3)', () => {
	it('is Confirmed once; replayed after a restart beyond the persisted keys it goes to Unconfirmed; a new completion is Confirmed', async () => {
		const api = new SandboxApi(sb.url);
		// The sandbox sends its own notifications nowhere: the test delivers each one itself, and again.
		await api.setWebhooks({ url: 'http://127.0.0.1:9/nowhere', verificationKey: KEY });
		n8n = await startN8n({ userFolder: folder });
		const credentialId = await createCredential(n8n, sb.url, 'PayOnUs tokenization replay');
		const webhookId = randomUUID();
		const { id } = await n8n.createWorkflow(
			triggerWorkflow('tokenization replay', webhookId, credentialId, { events: ['COLLECTION', 'card_tokenization_link.completed'] }),
		);
		await n8n.activate(id);
		let url = n8n.webhookUrl(`${webhookId}/webhook`);
		const tag = Date.now();

		/** A link completed by the customer now, and the notification the service sends for it (once). */
		const completion = async (reference: string): Promise<IDataObject> => {
			const link = await api.tokenization(reference);
			const cardTokenId = sb.state.links.get(String(link.id))?.cardTokenId;
			expect(cardTokenId).toEqual(expect.any(String));
			return { event: 'card_tokenization_link.completed', cardTokenizationLinkId: link.id, cardTokenId, businessId: 'BUS-2001', status: 'COMPLETED' };
		};

		const first = await completion(`e2e-tok-replay-${tag}-1`);
		expect(await post(url, first, false)).toEqual({ status: 200, body: { received: true } });
		await n8n.waitForExecutions(id, 1, 120_000);
		expect(await post(url, first, false)).toEqual({ status: 200, body: { received: true, duplicate: true } });

		// The trigger goes on handling payments, a minute later: more than it carries over a restart.
		await api.advanceClock(60);
		for (let i = 0; i < PAST_PERSISTED; i++) {
			const account = await api.collection(`e2e-tok-replay-${tag}-c${i}`, 1500);
			const body = {
				type: 'COLLECTION', currency: 'NGN', businessId: 'BUS-2001', accountNumber: String(account.accountNumber),
				onusReference: String(account.onusReference), paymentStatus: 'SUCCESSFUL', transactionAmount: 1500,
			};
			expect((await post(url, body, true)).status).toBe(200);
		}
		await n8n.waitForExecutions(id, 1 + PAST_PERSISTED, 300_000);
		await sleep(2000); // the last static data written

		await n8n.stop();
		n8n = await startN8n({ userFolder: folder });
		url = n8n.webhookUrl(`${webhookId}/webhook`);
		const running = n8n;
		await until('the webhook registered after the restart', 120_000, async () =>
			(await fetch(url, { method: 'POST', body: '' })).status !== 404 ? true : undefined,
		);

		// The same completion delivered again (its key left the memory), then a new one made after the restart.
		expect(await post(url, first, false)).toEqual({ status: 200, body: { received: true } });
		await api.advanceClock(60);
		const fresh = await completion(`e2e-tok-replay-${tag}-2`);
		expect(await post(url, fresh, false)).toEqual({ status: 200, body: { received: true } });

		const expected = 1 + PAST_PERSISTED + 2;
		await running.waitForExecutions(id, expected, 120_000);
		await sleep(3000);
		const executions = await running.listExecutions(id, true);
		expect(executions).toHaveLength(expected);
		const confirmed = executions.flatMap((e) => nodeItems(e, TRIGGER_NAME, 0)).filter((i) => i.event === 'card_tokenization_link.completed');
		const unconfirmed = executions.flatMap((e) => nodeItems(e, TRIGGER_NAME, 1));
		const links = (items: IDataObject[]) => items.map((i) => i.cardTokenizationLinkId).sort();
		// Confirmed: the first delivery of each completion, never the replay.
		expect(links(confirmed)).toEqual([first.cardTokenizationLinkId, fresh.cardTokenizationLinkId].sort());
		expect(unconfirmed).toHaveLength(1);
		expect(unconfirmed[0]).toMatchObject({ cardTokenizationLinkId: first.cardTokenizationLinkId, confirmed: false });
		expect(String((unconfirmed[0].confirmation as IDataObject).reason)).toContain('may have been handled already');
	});
});
