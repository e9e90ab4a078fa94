/**
 * The n8n editor in headless Chromium, for the editor pictures
 * (scripts/trigger-screenshots.ts, scripts/action-screenshots.ts): open a
 * workflow as the harness's owner, open and close a node's panel, read it.
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
		const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
		const url = new URL(n8n.baseUrl);
		const value = n8n.cookie.replace(/^n8n-auth=/, '').split(';')[0];
		await context.addCookies([{ name: 'n8n-auth', value, domain: url.hostname, path: '/' }]);
		const page = await context.newPage();
		await page.goto(`${n8n.baseUrl}/workflow/${workflowId}`);
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
