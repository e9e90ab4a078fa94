/**
 * The Docs link of each node's panel, read in a real n8n's editor (headless
 * Chromium): n8n builds it as test/repo/docsLinks.test.ts models it (the
 * codex's primaryDocumentation URL, then "?" and its tracking query), which
 * that test follows to a real page of the repository. Here: the href the
 * editor really shows, per node, on both supported n8n versions.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { triggersWorkflow } from '../../scripts/trigger-screenshots';
import { closeNode, openEditor, openNode } from '../../scripts/lib/editor';
import { PAYONUS } from '../../dev/workflows';
import { useTriggerSandbox } from './triggerFixtures';

jest.setTimeout(300_000);

const e2e = useTriggerSandbox('docs-links');
const out = mkdtempSync(join(tmpdir(), 'payonus-docs-links-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const root = join(__dirname, '..', '..');
const primary = (folder: string): string =>
	JSON.parse(readFileSync(join(root, 'nodes', folder, `${folder}.node.json`), 'utf8')).resources.primaryDocumentation[0].url;

it("each node's Docs link in the editor is its page, with n8n's tracking query after it (no anchor)", async () => {
	const workflow = triggersWorkflow(`docs links ${Date.now()}`, { id: e2e.credentialId, name: 'PayOnUs' }, `docs-${Date.now()}`);
	workflow.nodes.push({
		id: 'action',
		name: 'PayOnUs',
		type: PAYONUS,
		typeVersion: 1,
		position: [700, 0],
		parameters: { resource: 'wallet', operation: 'listWallets' },
		credentials: { payOnUsApi: { id: e2e.credentialId, name: 'PayOnUs' } },
	} as never);
	const id = await e2e.createWorkflow(workflow as never);
	const { browser, page } = await openEditor(e2e.n8n, id, join(out, 'error.png'));
	const seen: Record<string, string[]> = {};
	try {
		for (const [nodeId, folder] of [
			['trigger', 'PayOnUsTrigger'],
			['poll', 'PayOnUsPollTrigger'],
			['page', 'PayOnUsPaymentPage'],
			['action', 'PayOnUs'],
		]) {
			await openNode(page, `.vue-flow__node[data-id="${nodeId}"]`);
			const hrefs = await page
				.locator('[data-test-id="ndv"] a[href*="utm_source=n8n_app"]')
				.evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).getAttribute('href') ?? ''));
			seen[folder] = hrefs;
			await closeNode(page);
		}
	} finally {
		await browser.close();
	}
	for (const [folder, hrefs] of Object.entries(seen)) {
		const url = primary(folder);
		expect({ folder, hrefs }).toEqual({ folder, hrefs: [expect.stringMatching(/\?utm_source=n8n_app&/)] });
		expect(hrefs[0].startsWith(`${url}?utm_source=n8n_app&`)).toBe(true);
		expect(url).not.toContain('#');
	}
});
