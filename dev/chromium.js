// @ts-check
/*
 * The Chromium the browser tests and the screenshot scripts drive: found here
 * (PAYONUS_CHROMIUM, else Debian's or Google's binary), installed with Debian's
 * package where this machine allows it (root with apt-get; `npm test`'s
 * preflight, before any test starts), launched headless through playwright-core.
 *
 * Plain JavaScript: `npm test` runs it before anything is built; TypeScript
 * imports it as is (JSDoc types).
 */
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/** What every launch passes: headless, no sandbox (root in CI), nothing that calls home. */
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/**
 * The Chromium binary: PAYONUS_CHROMIUM when it exists, else the first of the usual places; undefined when none.
 * @returns {string | undefined}
 */
function findChromium() {
	if (process.env.PAYONUS_CHROMIUM) return fs.existsSync(process.env.PAYONUS_CHROMIUM) ? process.env.PAYONUS_CHROMIUM : undefined;
	return CANDIDATES.find((file) => fs.existsSync(file));
}

/**
 * The Chromium binary, installing Debian's package first when none is found and this machine allows it.
 * @param {{ log: (line: string) => void }} opts
 * @returns {string}
 */
function ensureChromium({ log }) {
	const found = findChromium();
	if (found) return found;
	if (process.env.PAYONUS_CHROMIUM) {
		throw new Error(`PAYONUS_CHROMIUM=${process.env.PAYONUS_CHROMIUM} does not exist: point it at a Chromium or Chrome binary.`);
	}
	const canApt = process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('sh', ['-c', 'command -v apt-get']).status === 0;
	if (!canApt) {
		throw new Error(
			'the browser test needs Chromium and none was found. Install it (Debian/Ubuntu: `sudo apt-get install -y chromium`) or set PAYONUS_CHROMIUM=/path/to/chrome, then run again.',
		);
	}
	log('Chromium not found: installing Debian\'s chromium package (apt-get, about a minute)');
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
	const install =
		update.status === 0 &&
		spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
	const installed = install && install.status === 0 ? findChromium() : undefined;
	if (!installed) {
		throw new Error('installing Chromium with apt-get failed (see above). Install it by hand (`apt-get install -y chromium`) or set PAYONUS_CHROMIUM.');
	}
	return installed;
}

/**
 * Launches headless Chromium (playwright-core); a clear error when it is not installed.
 * @returns {Promise<import('playwright-core').Browser>}
 */
async function launchChromium() {
	const executablePath = findChromium();
	if (!executablePath) {
		const where = process.env.PAYONUS_CHROMIUM ?? CANDIDATES[0];
		throw new Error(`Chromium not found at ${where}: install Debian's chromium (apt-get install -y chromium) or set PAYONUS_CHROMIUM`);
	}
	// loaded here, not above: `npm test`'s preflight needs no browser driver
	const { chromium } = require('playwright-core');
	return await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}

module.exports = { findChromium, ensureChromium, launchChromium };
