/**
 * Headless Chromium for the browser e2e test and scripts/screenshots.ts:
 * Debian's /usr/bin/chromium (or PAYONUS_CHROMIUM), driven by playwright-core.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.PAYONUS_CHROMIUM ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((f) => existsSync(f)) ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** Launches headless Chromium; a clear error when it is not installed. */
export async function launchChromium(): Promise<Browser> {
	if (!existsSync(CHROMIUM)) {
		throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium) or set PAYONUS_CHROMIUM`);
	}
	return await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
