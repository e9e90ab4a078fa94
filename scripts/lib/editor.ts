/**
 * The n8n editor in headless Chromium, for the editor pictures and the
 * walk-throughs (scripts/*-screenshots.ts, scripts/*-walkthrough.ts): open a
 * workflow as the harness's owner (or an empty one at the node search),
 * search nodes, open and close a node's panel, read it.
 */
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../dev/chromium';
import type { N8nClient } from '../../dev/n8n/client';

/** A picture and the visible text of what it shows. */
export interface Shot {
	file: string;
	/** Visible text of what was pictured (the open panel, or the canvas). */
	text: string;
}

/**
 * Chromium on workflow `workflowId`, logged in with the harness's owner
 * session (n8n's auth cookie), the canvas shown and fitted to the window.
 * When the canvas does not show, `errorPicture` is saved and the error says
 * where the page was. The caller closes the browser.
 */
export async function openEditor(n8n: N8nClient, workflowId: string, errorPicture: string): Promise<{ browser: Browser; page: Page }> {
	const browser = await launchChromium();
	try {
		const page = await ownerPage(browser, n8n, workflowId);
		await page
			.locator('.vue-flow__node')
			.first()
			.waitFor({ state: 'visible', timeout: 60_000 })
			.catch(async (error: Error) => {
				await page.screenshot({ path: errorPicture }).catch(() => undefined);
				throw new Error(`the editor did not show the workflow (at ${page.url()}): ${error.message.split('\n')[0]}`);
			});
		await page.waitForLoadState('networkidle').catch(() => undefined);
		await page.keyboard.press('Escape').catch(() => undefined);
		await page.locator('.vue-flow__pane').first().click({ position: { x: 5, y: 5 } }).catch(() => undefined);
		await page.keyboard.press('1').catch(() => undefined);
		await page.waitForTimeout(1200);
		return { browser, page };
	} catch (error) {
		await browser.close();
		throw error;
	}
}

/**
 * Chromium on workflow `workflowId` with no node yet, logged in as the
 * harness's owner, the node search open (what a builder sees after clicking
 * the canvas's +). The caller closes the browser.
 */
export async function openEmptyCanvas(n8n: N8nClient, workflowId: string): Promise<{ browser: Browser; page: Page }> {
	const browser = await launchChromium();
	try {
		const page = await ownerPage(browser, n8n, workflowId);
		const add = page.locator('[data-test-id="canvas-add-button"]').first();
		await add.waitFor({ state: 'visible', timeout: 60_000 });
		await page.waitForTimeout(1000);
		await add.click();
		return { browser, page };
	} catch (error) {
		await browser.close();
		throw error;
	}
}

/** A page of `browser` on workflow `workflowId`, with the harness owner's session (n8n's auth cookie). */
async function ownerPage(browser: Browser, n8n: N8nClient, workflowId: string): Promise<Page> {
	const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
	const url = new URL(n8n.baseUrl);
	const value = n8n.cookie.replace(/^n8n-auth=/, '').split(';')[0];
	await context.addCookies([{ name: 'n8n-auth', value, domain: url.hostname, path: '/' }]);
	const page = await context.newPage();
	await page.goto(`${n8n.baseUrl}/workflow/${workflowId}`);
	return page;
}

/**
 * Types `query` into the node search (opening it when closed) and returns the
 * first six results' names; with `describeFirst`, the first one followed by
 * its description. When the search does not open, `errorPicture` is saved.
 */
export async function searchNodes(page: Page, query: string, opts: { describeFirst?: boolean; errorPicture?: string } = {}): Promise<string[]> {
	const bar = page.locator('[data-test-id="node-creator-search-bar"] input, [data-test-id="node-creator-search-bar"]').first();
	if (!(await bar.isVisible().catch(() => false))) {
		await page.locator('[data-test-id="canvas-add-button"], [data-test-id="node-creator-plus-button"]').first().click();
		await bar.waitFor({ state: 'visible', timeout: 10_000 }).catch(async (error: Error) => {
			if (opts.errorPicture) await page.screenshot({ path: opts.errorPicture }).catch(() => undefined);
			throw error;
		});
	}
	await bar.fill('');
	await bar.type(query, { delay: 20 });
	await page.waitForTimeout(1200);
	const names = (await page.locator('[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]').allInnerTexts()).slice(0, 6).map((n) => n.trim());
	if (!opts.describeFirst) return names;
	const [description] = await page.locator('[data-test-id="node-creator"] [data-test-id="node-creator-item-description"]').allInnerTexts();
	return names.map((n, i) => (i === 0 && description ? `${n} ("${description.trim()}")` : n));
}

/** Opens the panel of the canvas node that `selector` finds (e.g. `.vue-flow__node[data-id="x"]`). */
export async function openNode(page: Page, selector: string): Promise<void> {
	await page.locator(selector).first().dblclick();
	await page.locator('[data-test-id="ndv"]').first().waitFor({ state: 'visible', timeout: 20_000 });
	await page.waitForTimeout(800);
}

export async function closeNode(page: Page): Promise<void> {
	await page.keyboard.press('Escape');
	await page.locator('[data-test-id="ndv"]').first().waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
}

/** The open panel's visible text ('' when none is open). */
export async function panelText(page: Page): Promise<string> {
	return (await page.locator('[data-test-id="ndv"]').first().innerText().catch(() => '')) ?? '';
}
