/**
 * Pictures of the PayOnUs action node in the n8n editor: headless Chromium
 * opens one workflow holding a Manual Trigger and one PayOnUs node per
 * operation, and saves each node's panel; then it runs four nodes from their
 * panel (Execute step) and saves the error each one shows:
 *
 *   already-paid     a transfer whose reference an earlier, different transfer holds
 *   unknown-payment  Get Payment of a reference nobody made
 *   invalid-fields   a Create Transfer with several wrong fields
 *   dry-run-failed   a Dry Run whose name check fails (the warning above the output)
 *
 *   npm run screenshots:actions [-- --out docs/images]
 *
 * starts its own sandbox and n8n (the harness, dev/n8n; the current n8n unless
 * PAYONUS_N8N_VERSION says otherwise). The e2e suite runs the same function
 * (test/e2e/action-screenshots.test.ts) against its n8n. The operations come
 * from the built node's description (dist/, so `npm run build` first).
 * Writes action-<resource>-<operation>.png and action-error-<name>.png and
 * returns, per picture, the panel's text and its fields' values.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { N8nClient } from '../dev/n8n/client';
import { closeNode, openEditor, openNode, panelText, type Shot } from './lib/editor';
import { repoRoot } from './lib/examples';

export const PAYONUS = 'n8n-nodes-payonus.payOnUs';

export interface Operation {
	resource: string;
	resourceName: string;
	operation: string;
	name: string;
}

interface Option {
	name: string;
	value: string;
}
interface Property {
	name: string;
	options?: Option[];
	displayOptions?: { show?: { resource?: string[] } };
}

/** Every resource and operation of the built node (dist/nodes/PayOnUs/PayOnUs.node.js). */
export function actionOperations(): Operation[] {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { PayOnUs } = require(join(repoRoot(), 'dist', 'nodes', 'PayOnUs', 'PayOnUs.node.js')) as {
		PayOnUs: new () => { description: { properties: Property[] } };
	};
	const properties = new PayOnUs().description.properties;
	const resources = properties.find((p) => p.name === 'resource')?.options ?? [];
	const operations: Operation[] = [];
	for (const resource of resources) {
		const field = properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value));
		for (const op of field?.options ?? []) {
			operations.push({ resource: resource.value, resourceName: resource.name, operation: op.value, name: op.name });
		}
	}
	return operations;
}

const business = { __rl: true, mode: 'id', value: 'BUS-2001' };

/** A bank transfer to the sandbox's always-successful account. */
function transfer(reference: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		resource: 'payout',
		operation: 'createTransfer',
		transferType: 'WALLET_TO_BANK_ACCOUNT',
		businessId: business,
		amount: 1500,
		currency: 'NGN',
		countryCode: 'NG',
		reference,
		beneficiaryBankCode: '044',
		beneficiaryAccountNumber: '9999991112',
		beneficiaryAccountName: 'Sandbox Success Beneficiary',
		narration: 'Invoice 1042',
		...extra,
	};
}

export interface ErrorCase {
	/** action-error-<name>.png */
	name: string;
	/** The node's name on the canvas (the panel's title). */
	node: string;
	parameters: Record<string, unknown>;
	/** What the panel shows once the (last) run is done. */
	wanted: RegExp;
	/** Another node run first from its own panel, waiting for its text (e.g. the earlier transfer of a reference). */
	earlier?: { node: string; parameters: Record<string, unknown>; wanted: RegExp };
}

export function errorCases(tag: string): ErrorCase[] {
	return [
		{
			name: 'already-paid',
			node: 'Pay supplier',
			// The reference was used by an earlier transfer of another amount: nothing is sent again.
			parameters: transfer(`INV-1042-${tag}`, { verifyBeneficiaryName: false, amount: 1600 }),
			earlier: { node: 'Pay supplier earlier', parameters: transfer(`INV-1042-${tag}`, { verifyBeneficiaryName: false }), wanted: /ONUS-/ },
			wanted: /already used by a different transfer/,
		},
		{
			name: 'unknown-payment',
			node: 'Look up payment',
			parameters: { resource: 'payin', operation: 'getPayment', businessId: business, onusReference: 'ONUS-NUB-DOES-NOT-EXIST' },
			wanted: /No payment/,
		},
		{
			name: 'invalid-fields',
			node: 'Pay with mistakes',
			parameters: transfer(`INV-1043-${tag}`, {
				// Wrong, but past the editor's own required-field check (an
				// empty required field stops the run before the node sees it).
				amount: -5,
				beneficiaryBankCode: '={{ "" }}',
				beneficiaryAccountNumber: '12ab',
				beneficiaryAccountName: '={{ "" }}',
			}),
			wanted: /Amount/i,
		},
		{
			name: 'dry-run-failed',
			node: 'Check payment first',
			parameters: transfer(`INV-1044-${tag}`, { beneficiaryAccountName: 'Somebody Else', dryRun: true }),
			wanted: /Dry Run FAILED/,
		},
	];
}

const COLUMNS = 6;

/** Manual Trigger "Start" feeding one PayOnUs node per operation and the error cases. */
export function actionsWorkflow(name: string, credential: { id: string; name: string }, operations: Operation[], errors: ErrorCase[]) {
	const cred = { payOnUsApi: credential };
	const payOnUs = [
		...operations.map((op) => ({
			id: `op-${op.resource}-${op.operation}`,
			name: op.name,
			parameters: { resource: op.resource, operation: op.operation },
		})),
		...errors.flatMap((e) => [
			...(e.earlier ? [{ id: `earlier-${e.name}`, name: e.earlier.node, parameters: e.earlier.parameters }] : []),
			{ id: `error-${e.name}`, name: e.node, parameters: e.parameters },
		]),
	].map((node, i) => ({
		...node,
		type: PAYONUS,
		typeVersion: 1,
		position: [300 + (i % COLUMNS) * 240, Math.floor(i / COLUMNS) * 180],
		credentials: cred,
	}));
	return {
		name,
		nodes: [
			{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 300], parameters: {} },
			...payOnUs,
		],
		// The operation nodes hang from Start (their panels show its input
		// side); the error nodes stand alone (Execute step runs just them).
		connections: {
			Start: { main: [payOnUs.filter((n) => n.id.startsWith('op-')).map((n) => ({ node: n.name, type: 'main', index: 0 }))] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** The panel's text and, after it, the values of its fields (innerText leaves those out). */
async function panelTextAndValues(page: Page): Promise<string> {
	const values = await page
		.locator('[data-test-id="ndv"] input')
		.evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value).filter((v) => v !== ''))
		.catch(() => [] as string[]);
	return `${await panelText(page)}\n${values.join('\n')}`;
}

async function outputText(page: Page): Promise<string> {
	const output = page.locator('[data-test-id="ndv"] [data-test-id="output-panel"]').first();
	if ((await output.count()) > 0) return (await output.innerText().catch(() => '')) ?? '';
	return await panelText(page);
}

/**
 * Clicks Execute step and waits until the output side shows `wanted` and
 * differs from what it showed before the click (a second run of the same
 * node must not be taken for the first). On failure the panel is saved
 * as `failed` (a picture to look at) and its text is in the error.
 */
async function runFromPanel(page: Page, wanted: RegExp, failed: string, timeoutMs = 60_000): Promise<void> {
	const before = await outputText(page);
	await page.locator('[data-test-id="node-execute-button"]').first().click();
	const deadline = Date.now() + timeoutMs;
	let now = before;
	while (Date.now() < deadline) {
		now = await outputText(page);
		if (now !== before && wanted.test(now)) return;
		await page.waitForTimeout(500);
	}
	await page.screenshot({ path: failed }).catch(() => undefined);
	throw new Error(`the panel did not show ${wanted} within ${timeoutMs} ms (picture: ${failed}); its output side read:\n${now.slice(0, 1500)}`);
}

/**
 * Takes the pictures in a running n8n (the harness's client: its owner
 * cookie logs the browser in). The credential must reach a sandbox (the
 * transfer of "already-paid" is really made there).
 */
export async function takeActionScreenshots(
	n8n: N8nClient,
	credential: { id: string; name: string },
	outDir: string,
): Promise<Shot[]> {
	mkdirSync(outDir, { recursive: true });
	const tag = Date.now().toString(36);
	const operations = actionOperations();
	const errors = errorCases(tag);
	const workflow = actionsWorkflow(`PayOnUs actions (screenshots ${tag})`, credential, operations, errors);
	// Through the editor's own API with empty pinned data (the public API
	// leaves it null, which the editor's Execute step trips over).
	const { id } = await n8n
		.rest<{ id: string }>('POST', '/workflows', { ...workflow, pinData: {}, active: false })
		.catch(async () => await n8n.createWorkflow(workflow as never));
	const { browser, page } = await openEditor(n8n, id, join(outDir, 'action-editor-error.png'));
	const shots: Shot[] = [];
	try {
		const shot = async (name: string) => {
			const file = join(outDir, `action-${name}.png`);
			await page.screenshot({ path: file });
			shots.push({ file, text: await panelTextAndValues(page) });
		};

		for (const op of operations) {
			await openNode(page, `.vue-flow__node[data-id="op-${op.resource}-${op.operation}"]`);
			await shot(`${op.resource}-${op.operation}`);
			await closeNode(page);
		}
		for (const e of errors) {
			const failed = join(outDir, `action-failed-${e.name}.png`);
			if (e.earlier) {
				await openNode(page, `.vue-flow__node[data-id="earlier-${e.name}"]`);
				await runFromPanel(page, e.earlier.wanted, failed);
				await closeNode(page);
			}
			await openNode(page, `.vue-flow__node[data-id="error-${e.name}"]`);
			await runFromPanel(page, e.wanted, failed);
			await page.waitForTimeout(800);
			// The toasts repeat the title and hide the bottom of the output.
			for (const close of await page.locator('.el-notification__closeBtn').all()) await close.click().catch(() => undefined);
			await page.waitForTimeout(500);
			await shot(`error-${e.name}`);
			await closeNode(page);
		}
	} finally {
		await browser.close();
		await n8n.rest('DELETE', `/workflows/${id}`).catch(() => undefined);
	}
	return shots;
}

async function main(): Promise<void> {
	const { startSandbox } = await import('../sandbox/server');
	const { startN8n } = await import('../dev/n8n');
	const { credentialData } = await import('./lib/provision');
	const argv = process.argv.slice(2);
	const outIndex = argv.indexOf('--out');
	const outDir = outIndex >= 0 ? argv[outIndex + 1] : join(repoRoot(), 'docs', 'images');
	const sb = await startSandbox({ port: 0 });
	const n8n = await startN8n();
	try {
		const name = 'PayOnUs (screenshots)';
		const credential = await n8n.createCredential({ name, type: 'payOnUsApi', data: credentialData(sb.url, 'screenshots-key') });
		for (const s of await takeActionScreenshots(n8n, { id: credential.id, name }, outDir)) process.stdout.write(`${s.file}\n`);
	} finally {
		await n8n.stop();
		await sb.stop();
	}
}

if (require.main === module) {
	main().catch((error) => {
		process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
		process.exit(1);
	});
}
