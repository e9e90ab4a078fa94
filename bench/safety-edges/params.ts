/**
 * Safety-edges area "params": parameters the way n8n hands them, in a real
 * n8n (dev/n8n startN8n, its own instance; PAYONUS_N8N_VERSION picks
 * the version) against an in-process sandbox.
 *
 * Rows: Dry Run from an expression ("true", "TRUE", " true ", "yes", ""),
 * per item (false then true), from an n8n Variable; Verify Beneficiary Name
 * First from an expression; Reconcile with a reference held twice on our
 * side and in two businesses; payouts the spec's statuses do not cover
 * (PROCESSING, REJECTED); an amount answered as text.
 *
 * Money moved: money-moving requests the sandbox received in a case that
 * must send nothing. False successes: items that said matched / SUCCESSFUL
 * for something that is not.
 */
import type { IDataObject } from 'n8n-workflow';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { nodeError, nodeErrorItem, nodeItems, type Execution } from '../../dev/n8n/execution';
import { itemsNode, manualWorkflow } from '../../dev/workflows';
import { sandboxCredentialData } from '../../dev/sandboxCredential';
import { startN8n, type N8nInstance } from '../../dev/n8n';
import { until } from '../../dev/wait';
import { row, type SafetyArea, type SafetyRow } from './types';

const NODE = 'PayOnUs';
const PAYONUS = 'n8n-nodes-payonus.payOnUs';
const MONEY = /transfer-requests\/(bank-transfer|bulk)|card-payments|mobile-money\/collection|eft-payment$/;

interface Ctx {
	n8n: N8nInstance;
	sb: SandboxHandle;
	credential: string;
	noBusinessCredential: string;
}

let seq = 0;
const ref = (label: string) => `bp-${label}-${Date.now().toString(36)}-${++seq}`;

async function run(c: Ctx, parameters: IDataObject, items: IDataObject[], credential = c.credential): Promise<Execution> {
	const workflow = manualWorkflow(`params bench ${++seq}`, [
		itemsNode(items.map((json) => ({ json }))),
		{ name: NODE, type: PAYONUS, typeVersion: 1, parameters, credentials: { payOnUsApi: { id: credential, name: 'PayOnUs bench' } } },
	]);
	const { id } = await c.n8n.createWorkflow(workflow);
	try {
		return await c.n8n.runWorkflow(id, { timeoutMs: 120_000 });
	} finally {
		await c.n8n.deleteWorkflow(id).catch(() => undefined);
	}
}

/** Money-moving requests the sandbox received while `fn` ran, and what fn returned. */
async function counting<T>(c: Ctx, fn: () => Promise<T>): Promise<{ moved: number; nameEnquiries: number; result: T }> {
	const before = c.sb.state.requestLog.length;
	const result = await fn();
	const log = c.sb.state.requestLog.slice(before);
	return {
		moved: log.filter((r) => r.method === 'POST' && MONEY.test(String(r.path))).length,
		nameEnquiries: log.filter((r) => String(r.path).endsWith('/name-enquiry')).length,
		result,
	};
}

const transfer = (over: IDataObject = {}): IDataObject => ({
	resource: 'payout',
	operation: 'createTransfer',
	transferType: 'WALLET_TO_BANK_ACCOUNT',
	businessId: { __rl: true, mode: 'id', value: 'BUS-2001' },
	amount: 10,
	currency: 'NGN',
	countryCode: 'NG',
	reference: '={{ $json.reference }}',
	beneficiaryBankCode: '044',
	beneficiaryAccountNumber: '9999991112',
	beneficiaryAccountName: '={{ $json.name ?? "Sandbox Success Beneficiary" }}',
	narration: 'bench params',
	dryRun: '={{ $json.dryRun }}',
	// The rows name beneficiaries freely: no name enquiry unless a row turns it on.
	verifyBeneficiaryName: false,
	...over,
});

/** "dry run" / "error naming [item N] and value" (n8n's zero-based item) / "sent" / other, for one execution. */
function outcome(execution: Execution, moved: number): string {
	const error = nodeError(execution, NODE);
	if (error) {
		const m = /^"(\w+)"[^,;]*(?:must be true or false, got|differs between items)/.exec(error);
		const item = nodeErrorItem(execution, NODE);
		return m && item !== undefined
			? `error naming [item ${item}] and ${m[1]}${moved === 0 ? ', nothing sent' : `, ${moved} sent`}`
			: `error: ${error.slice(0, 80)}`;
	}
	const items = nodeItems(execution, NODE);
	if (items.every((i) => i.dryRun !== undefined) && moved === 0) return 'dry run, nothing sent';
	return `${moved} sent`;
}

async function dryRunRows(c: Ctx): Promise<SafetyRow[]> {
	const rows: SafetyRow[] = [];
	for (const text of ['true', 'TRUE', ' true ']) {
		const { moved, result } = await counting(c, async () => await run(c, transfer(), [{ reference: ref('dry'), dryRun: text }]));
		rows.push(row('Dry Run', `from an expression giving the text ${JSON.stringify(text)}`, 'dry run, nothing sent', outcome(result, moved), { moneyMoved: moved }));
	}
	for (const text of ['yes', '']) {
		const { moved, result } = await counting(c, async () => await run(c, transfer(), [{ reference: ref('dry'), dryRun: text }]));
		rows.push(
			row('Dry Run', `from an expression giving the text ${JSON.stringify(text)}`, 'error naming [item 0] and dryRun, nothing sent', outcome(result, moved), {
				moneyMoved: moved,
			}),
		);
	}
	{
		const { moved, result } = await counting(c, async () => await run(c, transfer(), [{ reference: ref('mix'), dryRun: false }, { reference: ref('mix'), dryRun: true }]));
		rows.push(row('Dry Run', 'per item: false for item 0, true for item 1', 'error naming [item 1] and dryRun, nothing sent', outcome(result, moved), { moneyMoved: moved }));
	}
	return rows;
}

/** Dry Run from an n8n Variable (text "true"): Variables are licence-gated; tried through n8n's own e2e test hook. */
async function variableRow(c: Ctx): Promise<SafetyRow> {
	const edge = 'from an n8n Variable holding "true" ({{ $vars.payonusDryRun }})';
	try {
		await c.n8n.rest('PATCH', '/e2e/feature', { feature: 'feat:variables', enabled: true });
		await c.n8n.rest('PATCH', '/e2e/quota', { feature: 'quota:maxVariables', value: -1 }).catch(() => undefined);
		await c.n8n.rest('POST', '/variables', { key: 'payonusDryRun', value: 'true', type: 'string' });
	} catch (error) {
		return row('Dry Run', edge, 'dry run, nothing sent', `Variables not available: ${(error as Error).message.slice(0, 120)}`);
	}
	const { moved, result } = await counting(c, async () => await run(c, transfer({ dryRun: '={{ $vars.payonusDryRun }}' }), [{ reference: ref('var') }]));
	return row('Dry Run', edge, 'dry run, nothing sent', outcome(result, moved), { moneyMoved: moved });
}

async function verifyRows(c: Ctx): Promise<SafetyRow[]> {
	const rows: SafetyRow[] = [];
	const params = transfer({ dryRun: false, verifyBeneficiaryName: '={{ $json.verify }}' });
	for (const text of ['false', ' FALSE ']) {
		const r = await counting(c, async () => await run(c, params, [{ reference: ref('vb'), verify: text }]));
		const error = nodeError(r.result, NODE);
		const observed = error ? `error: ${error.slice(0, 80)}` : `sent without name enquiry (${r.nameEnquiries} enquiries)`;
		rows.push(row('Verify Beneficiary Name First', `from an expression giving ${JSON.stringify(text)}`, 'sent without name enquiry (0 enquiries)', observed));
	}
	for (const text of ['true', 'TRUE']) {
		const r = await counting(c, async () => await run(c, params, [{ reference: ref('vb'), verify: text, name: 'Somebody Else' }]));
		const error = nodeError(r.result, NODE) ?? '';
		const observed = error.includes('does not match the name on the account') ? 'wrong name refused, nothing sent' : `${r.moved} sent`;
		rows.push(
			row('Verify Beneficiary Name First', `from an expression giving ${JSON.stringify(text)}, wrong name`, 'wrong name refused, nothing sent', observed, {
				moneyMoved: r.moved,
			}),
		);
	}
	for (const text of ['', 'yes']) {
		const r = await counting(c, async () => await run(c, params, [{ reference: ref('vb'), verify: text, name: 'Somebody Else' }]));
		const error = nodeError(r.result, NODE) ?? '';
		const named = error.startsWith('"verifyBeneficiaryName"') && error.includes('must be true or false') && nodeErrorItem(r.result, NODE) === 0;
		const observed = named ? `error naming [item 0] and verifyBeneficiaryName${r.moved === 0 ? ', nothing sent' : ''}` : `${r.moved} sent`;
		rows.push(
			row(
				'Verify Beneficiary Name First',
				`from an expression giving ${JSON.stringify(text)}, wrong name`,
				'error naming [item 0] and verifyBeneficiaryName, nothing sent',
				observed,
				{ moneyMoved: r.moved },
			),
		);
	}
	return rows;
}

/** Rule 5: a default fills only what the editor left empty, never what an expression left empty. */
async function emptyValueRows(c: Ctx): Promise<SafetyRow[]> {
	const NET = 'Defaults (rule 5)';
	const rows: SafetyRow[] = [];
	const said = (execution: Execution, moved: number): string => {
		const error = nodeError(execution, NODE) ?? '';
		const m = /^"([^"]+)" came out empty/.exec(error);
		if (m) return `error naming [item ${String(nodeErrorItem(execution, NODE))}] and ${m[1]}${moved === 0 ? ', nothing sent' : `, ${moved} sent`}`;
		if (error) return `error: ${error.slice(0, 80)}`;
		return `${moved} sent`;
	};
	const mapped = { __rl: true, mode: 'id', value: '={{ $json.businessId }}' };
	{
		const r = await counting(c, async () => await run(c, transfer({ businessId: mapped, dryRun: false }), [{ reference: ref('nobiz') }]));
		rows.push(
			row(NET, 'Business {{ $json.businessId }} on an item without the field', 'error naming [item 0] and Business, nothing sent', said(r.result, r.moved), {
				moneyMoved: r.moved,
			}),
		);
	}
	{
		const r = await counting(c, async () => await run(c, transfer({ countryCode: '={{ $json.country }}', dryRun: false }), [{ reference: ref('nocountry') }]));
		rows.push(row(NET, 'Country Code {{ $json.country }} giving nothing', 'error naming [item 0] and Country Code, nothing sent', said(r.result, r.moved), { moneyMoved: r.moved }));
	}
	{
		const before = c.sb.state.requestLog.length;
		const r = await counting(c, async () => await run(c, transfer({ businessId: { __rl: true, mode: 'list', value: '' }, dryRun: false }), [{ reference: ref('editor-empty') }]));
		const sent = c.sb.state.requestLog.slice(before).find((q) => q.method === 'POST' && MONEY.test(String(q.path)));
		const business = (sent?.body as IDataObject | undefined)?.businessId;
		rows.push(row(NET, "Business left empty in the editor", "1 sent, from the credential's BUS-2001", `${said(r.result, r.moved)}${business ? `, from the credential's ${String(business)}` : ''}`));
	}
	return rows;
}

async function pay(c: Ctx, reference: string, businessId: string, account = '9999991112'): Promise<void> {
	const execution = await run(
		c,
		transfer({ dryRun: false, amount: 20, businessId: { __rl: true, mode: 'id', value: businessId }, beneficiaryAccountNumber: account }),
		[{ reference, name: 'Anyone' }],
	);
	const error = nodeError(execution, NODE);
	if (error) throw new Error(`set-up payout ${reference}: ${error}`);
}

const today = () => new Date().toISOString().slice(0, 10);
const reconcile = (businessId: string) => ({
	resource: 'reconciliation',
	operation: 'reconcile',
	records: 'payouts',
	businessId,
	fromDate: today(),
	toDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
});
const categories = (out: IDataObject[], reference: string) =>
	out
		.filter((o) => o.reference === reference)
		.map((o) => String(o.category))
		.join(', ');

async function reconcileRows(c: Ctx): Promise<SafetyRow[]> {
	const rows: SafetyRow[] = [];
	const twice = ref('twice');
	await pay(c, twice, 'BUS-2001');
	const a = nodeItems(await run(c, reconcile('BUS-2001'), [{ reference: twice, amount: 20 }, { reference: twice, amount: 20 }]), NODE);
	rows.push(
		row('Reconciliation', 'our ledger holds a reference twice against one service record', 'duplicateOnOurSide, duplicateOnOurSide', categories(a, twice), {
			falseSuccesses: a.filter((o) => o.reference === twice && o.category === 'matched').length,
		}),
	);
	const both = ref('both');
	await pay(c, both, 'BUS-2001');
	await pay(c, both, 'BUS-2002');
	const b = nodeItems(await run(c, reconcile(''), [{ reference: both, amount: 20 }], c.noBusinessCredential), NODE);
	rows.push(
		row(
			'Reconciliation',
			'no Business ID: one of our records, the reference held in two businesses',
			'ambiguousBusiness, ambiguousBusiness, ambiguousBusiness',
			categories(b, both),
			{ falseSuccesses: b.filter((o) => o.reference === both && o.category === 'matched').length },
		),
	);
	return rows;
}

async function statusRows(c: Ctx): Promise<SafetyRow[]> {
	const rows: SafetyRow[] = [];
	c.sb.sandbox.profiles.set(['unlisted-payout-statuses']);
	try {
		const processing = ref('proc');
		const rejected = ref('rej');
		const first = nodeItems(
			await run(c, transfer({ dryRun: false, beneficiaryAccountNumber: '9999991111' }), [{ reference: processing, name: 'Anyone' }]),
			NODE,
		)[0];
		await run(c, transfer({ dryRun: false, beneficiaryAccountNumber: '9999991122' }), [{ reference: rejected, name: 'Anyone' }]);
		await until('the rejected payout settles', 30_000, async () =>
			[...c.sb.state.transfers.values()].some((t) => t.merchantReference === rejected && t.paymentStatus === 'FAILED') ? true : undefined,
		);
		const found = nodeItems(await run(c, { resource: 'payout', operation: 'searchTransfers', returnAll: true }, [{}]), NODE);
		const status = (r: string) => String(found.find((t) => t.merchantReference === r)?.paymentStatus ?? 'absent');
		const rec = nodeItems(
			await run(c, reconcile('BUS-2001'), [
				{ reference: processing, amount: 10, status: 'SUCCESSFUL' },
				{ reference: rejected, amount: 10, status: 'SUCCESSFUL' },
			]),
			NODE,
		);
		const isSuccess = (s: string) => (s === 'SUCCESSFUL' ? 1 : 0);
		rows.push(
			row('Unlisted statuses', 'payout left PROCESSING: create answer, search without a status filter', 'PROCESSING, PROCESSING', `${String(first.paymentStatus)}, ${status(processing)}`, {
				falseSuccesses: isSuccess(String(first.paymentStatus)) + isSuccess(status(processing)),
				blindWindows: status(processing) === 'absent' ? 1 : 0,
			}),
		);
		rows.push(
			row('Unlisted statuses', 'payout REJECTED: search without a status filter', 'REJECTED', status(rejected), {
				falseSuccesses: isSuccess(status(rejected)),
				blindWindows: status(rejected) === 'absent' ? 1 : 0,
			}),
		);
		rows.push(
			row('Unlisted statuses', 'reconcile: ours SUCCESSFUL, service PROCESSING / REJECTED', 'statusDiffers, statusDiffers', `${categories(rec, processing)}, ${categories(rec, rejected)}`, {
				falseSuccesses: rec.filter((o) => (o.reference === processing || o.reference === rejected) && o.category === 'matched').length,
			}),
		);
	} finally {
		c.sb.sandbox.profiles.set([]);
	}
	c.sb.sandbox.profiles.set(['text-amounts']);
	try {
		const out = nodeItems(await run(c, transfer({ dryRun: false, amount: 1500 }), [{ reference: ref('txt') }]), NODE)[0];
		rows.push(row('Amounts', 'service answers amount "1500.00" (text)', 'number 1500', `${typeof out.amount} ${String(out.amount)}`));
	} finally {
		c.sb.sandbox.profiles.set([]);
	}
	return rows;
}

export const area: SafetyArea = {
	name: 'params',
	needsN8n: true,
	async run(): Promise<SafetyRow[]> {
		// E2E_TESTS mounts n8n's own test hook (/rest/e2e) to turn the Variables licence feature on.
		const n8n = await startN8n({ env: { E2E_TESTS: 'true' } });
		const sb = await startSandbox({ port: 0, config: { requestLogLimit: 50_000 } });
		try {
			const make = async (name: string, over: IDataObject = {}) =>
				(await n8n.createCredential({ name, type: 'payOnUsApi', data: sandboxCredentialData(sb.url, over) })).id;
			const c: Ctx = { n8n, sb, credential: await make('PayOnUs bench'), noBusinessCredential: await make('PayOnUs bench no business', { businessId: '' }) };
			const rows: SafetyRow[] = [];
			rows.push(...(await dryRunRows(c)));
			rows.push(await variableRow(c));
			rows.push(...(await verifyRows(c)));
			rows.push(...(await emptyValueRows(c)));
			rows.push(...(await reconcileRows(c)));
			rows.push(...(await statusRows(c)));
			return rows;
		} finally {
			await sb.stop().catch(() => undefined);
			await n8n.stop().catch(() => undefined);
		}
	},
};
