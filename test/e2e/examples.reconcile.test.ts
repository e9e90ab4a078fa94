/**
 * The nightly reconciliation example (examples/nightly-reconciliation.json),
 * imported as a user would import it, in the real n8n against a fresh
 * sandbox: our ledger is an n8n Data table the test fills, the payouts are
 * made through the sandbox API, and the chat webhook is a local capture
 * server. The workflow is started from its Schedule Trigger, as the editor's
 * "Execute workflow" does.
 */
import { randomBytes } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { SandboxClient } from '../../sandbox/client';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { loadExample, prepareExample } from '../../scripts/lib/examples';
import { credentialData } from '../../scripts/lib/provision';
import { itemsNode, manualWorkflow } from '../../dev/workflows';
import { nodeError, nodeItems, sharedN8n, type Execution, type N8nClient } from '../harness/e2e';
import { startChatCapture, type ChatCapture } from './examples.fixtures';
import { until } from '../../dev/wait';

jest.setTimeout(300_000);

const RUN = randomBytes(4).toString('hex');
const KEY = `nightly-e2e-key-${randomBytes(6).toString('hex')}`;
const TRIGGER = 'Every night at 02:00';
const CATEGORIES = ['matched', 'amountDiffers', 'statusDiffers', 'missingAtService', 'missingOnOurSide'];

interface LedgerRow extends IDataObject {
	reference: string;
	amount: number;
	currency: string;
	status: string;
	day: string;
}
interface Summary {
	reportDate: string;
	businessId: string;
	ledgerRows: number;
	counts: Record<string, number>;
	toCheck: number;
	text: string;
}

let n8n: N8nClient;
let sb: SandboxHandle;
/** The sandbox's client: control calls, and set-up payouts as API client 3 (n8n's credential uses client 1). */
let sandbox: SandboxClient;
let chat: ChatCapture;
let credential: { id: string; name: string };
const created: string[] = [];

/** `yyyy-MM-dd` (UTC) of `daysAgo` days before now. */
const utcDay = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

/** A payout of BUS-2001 through the sandbox API (to the account that always succeeds). */
async function payout(reference: string, amount: number): Promise<IDataObject> {
	return await sandbox.api<IDataObject>('POST', '/api/v1/transfer-requests/bank-transfer', {
		transferType: 'WALLET_TO_BANK_ACCOUNT',
		amount,
		currency: 'NGN',
		countryCode: 'NG',
		reference,
		narration: 'nightly reconciliation e2e',
		businessId: 'BUS-2001',
		beneficiaryAccountNumber: '9999991112',
		beneficiaryAccountName: 'Sandbox Success Beneficiary',
		beneficiaryBankCode: '044',
	});
}

/** Creates a Data table with the example's columns, fills it with `rows` (through n8n's own Data table node), returns its id. */
async function ledgerTable(name: string, rows: LedgerRow[]): Promise<string> {
	const text = (column: string) => ({ name: column, type: 'string' });
	const workflow = manualWorkflow(`PayOnUs nightly e2e: ${name}`, [
		{
			name: 'Ledger table',
			type: 'n8n-nodes-base.dataTable',
			typeVersion: 1.1,
			parameters: {
				resource: 'table',
				operation: 'create',
				tableName: name,
				columns: { column: [text('reference'), { name: 'amount', type: 'number' }, text('currency'), text('status'), text('day')] },
				options: {},
			},
		},
		itemsNode(rows.map((json) => ({ json }))),
		{
			name: 'Insert rows',
			type: 'n8n-nodes-base.dataTable',
			typeVersion: 1.1,
			parameters: {
				resource: 'row',
				operation: 'insert',
				dataTableId: { __rl: true, mode: 'id', value: "={{ $('Ledger table').first().json.id }}" },
				columns: { mappingMode: 'autoMapInputData', value: null },
				options: {},
			},
		},
	]);
	const { id } = await n8n.createWorkflow(workflow);
	created.push(id);
	const execution = await n8n.runWorkflow(id);
	expect(nodeError(execution)).toBeUndefined();
	if (rows.length > 0) expect(nodeItems(execution, 'Insert rows')).toHaveLength(rows.length);
	return String(nodeItems(execution, 'Ledger table')[0].id);
}

/** Imports the example with these Settings values and runs it from its Schedule Trigger. */
async function runNightly(label: string, settings: Record<string, string>): Promise<Execution> {
	const workflow = prepareExample(loadExample('nightlyReconciliation'), {
		credential,
		settings: { chatWebhookUrl: `${chat.url}/hooks/${label}-${RUN}`, ...settings },
		name: `PayOnUs example: Nightly reconciliation (${label}, e2e ${RUN})`,
	});
	const { id } = await n8n.createWorkflow(workflow as never);
	created.push(id);
	const execution = await n8n.runWorkflow(id, { triggerName: TRIGGER, timeoutMs: 120_000 });
	expect(nodeError(execution)).toBeUndefined();
	return execution;
}

function postedText(label: string): string {
	const posts = chat.posts.filter((p) => p.path === `/hooks/${label}-${RUN}`);
	expect(posts).toHaveLength(1);
	expect(posts[0].contentType).toContain('application/json');
	const body = JSON.parse(posts[0].body) as Record<string, unknown>;
	expect(Object.keys(body)).toEqual(['text']);
	// nothing secret reaches the chat
	for (const secret of [KEY, 'sandbox-secret', 'access_token', 'Bearer']) expect(posts[0].body).not.toContain(secret);
	return String(body.text);
}

beforeAll(async () => {
	n8n = sharedN8n();
	sb = await startSandbox({ port: 0 });
	sandbox = new SandboxClient(sb.url);
	chat = await startChatCapture();
	const name = `PayOnUs nightly reconciliation e2e ${RUN}`;
	const made = await n8n.createCredential({ name, type: 'payOnUsApi', data: credentialData(sb.url, KEY) });
	credential = { id: made.id, name };
});

afterAll(async () => {
	for (const id of created) await n8n.deleteWorkflow(id).catch(() => undefined);
	await chat?.stop();
	await sb?.stop();
});

describe('nightly reconciliation example in a real n8n', () => {
	const ref = (what: string) => `nightly-${what}-${RUN}`;
	let day: string;
	let tableId: string;
	let unrecorded: string;

	beforeAll(async () => {
		// the service's side: five payouts of the day, one of them not in our ledger
		// one token (the client keeps it): the sandbox allows 3 token calls a minute
		await payout(ref('ok-1'), 100);
		await payout(ref('ok-2'), 250.5);
		await payout(ref('amount'), 300);
		await payout(ref('status'), 400);
		await payout(ref('unrecorded'), 75);
		const settled = await until('the payouts to settle', 30_000, async () => {
			const { transfers } = await sandbox.ledger();
			const ours = transfers.filter((t) => t.merchantReference.endsWith(RUN));
			return ours.length === 5 && ours.every((t) => t.paymentStatus === 'SUCCESSFUL') ? ours : undefined;
		});
		day = settled[0].createdDate.slice(0, 10);
		expect(settled.every((t) => t.createdDate.startsWith(day))).toBe(true);
		unrecorded = settled.find((t) => t.merchantReference === ref('unrecorded'))!.onusReference;
		// our side: the ledger, with a row of another day that must not be compared
		const row = (what: string, amount: number, status = 'SUCCESSFUL', onDay = day): LedgerRow => ({
			reference: ref(what),
			amount,
			currency: 'NGN',
			status,
			day: onDay,
		});
		tableId = await ledgerTable(`payonus_ledger_e2e_${RUN}`, [
			row('ok-1', 100),
			row('ok-2', 250.5),
			row('amount', 330),
			row('status', 400, 'PENDING'),
			row('never-sent', 50),
			row('other-day', 60, 'SUCCESSFUL', '2000-01-01'),
		]);
	});

	it('sorts the day into the five categories and posts the counts to the chat webhook', async () => {
		const execution = await runNightly('day', { ledgerTableId: tableId, reportDate: day });
		const [summary] = nodeItems(execution, 'Summary') as unknown as Summary[];
		expect(summary).toMatchObject({ reportDate: day, businessId: 'BUS-2001', ledgerRows: 5, toCheck: 4 });
		expect(summary.counts).toEqual({ matched: 2, amountDiffers: 1, statusDiffers: 1, missingAtService: 1, missingOnOurSide: 1 });

		// the Reconcile node's own items, one per record
		const byReference = Object.fromEntries(nodeItems(execution, 'Reconcile payouts').map((r) => [r.reference, r.category]));
		expect(byReference).toEqual({
			[ref('ok-1')]: 'matched',
			[ref('ok-2')]: 'matched',
			[ref('amount')]: 'amountDiffers',
			[ref('status')]: 'statusDiffers',
			[ref('never-sent')]: 'missingAtService',
			[ref('unrecorded')]: 'missingOnOurSide',
		});

		const text = postedText('day');
		expect(text).toBe(summary.text);
		const lines = text.split('\n');
		expect(lines[0]).toBe(`PayOnUs reconciliation of the payouts of ${day} (BUS-2001): 4 to check`);
		expect(lines[1]).toBe('matched 2, amount differs 1, status differs 1, missing at PayOnUs 1, missing in our ledger 1');
		expect(lines.slice(2).sort()).toEqual(
			[
				`- amount differs: ${ref('amount')}: amount: ours 330, service 300`,
				`- status differs: ${ref('status')}: status: ours PENDING, service SUCCESSFUL`,
				`- missing at PayOnUs: ${ref('never-sent')} (ours: NGN 50): no payout with this reference that day`,
				`- missing in our ledger: ${ref('unrecorded')}: PayOnUs NGN 75 SUCCESSFUL (${unrecorded})`,
			].sort(),
		);
		expect(text).not.toContain(ref('other-day'));
	});

	it('with no ledger rows for the day, still reports the payouts we never recorded', async () => {
		const empty = await ledgerTable(`payonus_ledger_empty_e2e_${RUN}`, []);
		const execution = await runNightly('empty', { ledgerTableId: empty, reportDate: day });
		const [summary] = nodeItems(execution, 'Summary') as unknown as Summary[];
		expect(summary).toMatchObject({ reportDate: day, ledgerRows: 0, toCheck: 5 });
		expect(summary.counts).toEqual({ matched: 0, amountDiffers: 0, statusDiffers: 0, missingAtService: 0, missingOnOurSide: 5 });
		const text = postedText('empty');
		expect(text.split('\n').slice(0, 3)).toEqual([
			`PayOnUs reconciliation of the payouts of ${day} (BUS-2001): 5 to check`,
			'matched 0, amount differs 0, status differs 0, missing at PayOnUs 0, missing in our ledger 5',
			`Our ledger has no records for ${day}.`,
		]);
		for (const what of ['ok-1', 'ok-2', 'amount', 'status', 'unrecorded']) expect(text).toContain(`missing in our ledger: ${ref(what)}:`);
	});

	it('by default reconciles yesterday (UTC): the service is asked for that one day', async () => {
		const before = utcDay(1);
		const execution = await runNightly('yesterday', { ledgerTableId: tableId });
		const after = utcDay(1);
		const reportDate = String(nodeItems(execution, 'Settings')[0].reportDate);
		expect([before, after]).toContain(reportDate);

		const reads = (await sandbox.requests()).filter(
			(r) => r.method === 'GET' && r.path === '/api/v1/transfer-requests' && r.query.fromDate === reportDate,
		);
		expect(reads.length).toBeGreaterThan(0);
		for (const r of reads) expect(r.query).toMatchObject({ fromDate: reportDate, toDate: reportDate, businessId: 'BUS-2001' });

		const [summary] = nodeItems(execution, 'Summary') as unknown as Summary[];
		expect(summary.reportDate).toBe(reportDate);
		expect(Object.keys(summary.counts).sort()).toEqual([...CATEGORIES].sort());
		const firstLine = postedText('yesterday').split('\n')[0];
		if (reportDate === day) {
			// the suite crossed midnight (UTC) after making the payouts: yesterday is their day
			expect(summary.counts).toEqual({ matched: 2, amountDiffers: 1, statusDiffers: 1, missingAtService: 1, missingOnOurSide: 1 });
			return;
		}
		// the sandbox has no payouts before today and our ledger none of yesterday: nothing to check
		expect(summary).toMatchObject({ ledgerRows: 0, toCheck: 0 });
		expect(Object.values(summary.counts)).toEqual([0, 0, 0, 0, 0]);
		expect(firstLine).toBe(`PayOnUs reconciliation of the payouts of ${reportDate} (BUS-2001): all 0 match`);
	});
});
