/**
 * Pictures of the example workflows in the n8n editor, for docs/quick-start.md:
 * headless Chromium logs into the running demo (`npm start`) as its owner,
 * opens each example and saves docs/images/<example>.png.
 *
 *   npm start                      # in one terminal
 *   node build/scripts/screenshots.js [--folder DIR] [--out docs/images]
 *
 * Chromium: Debian's /usr/bin/chromium (or PAYONUS_CHROMIUM), driven by
 * playwright-core.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from '../dev/chromium';
import { EXAMPLES, repoRoot, type ExampleKey } from './lib/examples';
import { readState, resolveFolder } from './lib/state';

function arg(argv: string[], flag: string): string | undefined {
	const i = argv.indexOf(flag);
	return i >= 0 ? argv[i + 1] : undefined;
}

export async function takeScreenshots(opts: {
	n8nUrl: string;
	email: string;
	password: string;
	workflows: Partial<Record<ExampleKey, { id: string; name: string }>>;
	outDir: string;
}): Promise<string[]> {
	mkdirSync(opts.outDir, { recursive: true });
	const browser = await launchChromium();
	const written: string[] = [];
	try {
		const context = await browser.newContext({ viewport: { width: 1600, height: 900 }, deviceScaleFactor: 1 });
		const page = await context.newPage();
		// log in through the sign-in form, as a person would
		await page.goto(`${opts.n8nUrl}/signin`);
		await page.locator('input[type="email"], input[name="emailOrLdapLoginId"]').first().fill(opts.email);
		await page.locator('input[type="password"]').first().fill(opts.password);
		await Promise.all([
			page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 }),
			page.locator('button[type="submit"], [data-test-id="form-submit-button"]').first().click(),
		]);
		for (const key of Object.keys(EXAMPLES) as ExampleKey[]) {
			const workflow = opts.workflows[key];
			if (!workflow) continue;
			await page.goto(`${opts.n8nUrl}/workflow/${workflow.id}`);
			await page.locator('.vue-flow__node').first().waitFor({ state: 'visible', timeout: 30_000 });
			await page.waitForLoadState('networkidle').catch(() => undefined);
			// close whatever the editor pops up on a first visit
			await page.keyboard.press('Escape').catch(() => undefined);
			// zoom to fit ("1" in the editor), then let the canvas settle
			await page.locator('.vue-flow__pane').first().click({ position: { x: 5, y: 5 } }).catch(() => undefined);
			await page.keyboard.press('1').catch(() => undefined);
			await page.waitForTimeout(1200);
			const file = join(opts.outDir, EXAMPLES[key].replace(/\.json$/, '.png'));
			await page.screenshot({ path: file });
			written.push(file);
		}
	} finally {
		await browser.close();
	}
	return written;
}

async function main(): Promise<void> {
	const argv = process.argv.slice(2);
	const folder = resolveFolder(arg(argv, '--folder'));
	const state = readState(folder);
	if (!state?.n8nUrl || !state.owner || !state.workflows) {
		throw new Error(`no demo found in ${folder}: run \`npm start\` first`);
	}
	const files = await takeScreenshots({
		n8nUrl: state.n8nUrl,
		email: state.owner.email,
		password: state.owner.password,
		workflows: state.workflows as Partial<Record<ExampleKey, { id: string; name: string }>>,
		outDir: arg(argv, '--out') ?? join(repoRoot(), 'docs', 'images'),
	});
	for (const file of files) process.stdout.write(`${file}\n`);
}

if (require.main === module) {
	main().catch((error) => {
		process.stderr.write(`screenshots failed: ${(error as Error).message}\n`);
		process.exit(1);
	});
}
