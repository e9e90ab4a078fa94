/*
 * Finds the Chromium the browser tests and screenshots drive, and installs
 * Debian's package where this machine allows it (root with apt-get). Elsewhere
 * it names the one command to run, before any test starts.
 */
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

function findChromium() {
	if (process.env.PAYONUS_CHROMIUM) return fs.existsSync(process.env.PAYONUS_CHROMIUM) ? process.env.PAYONUS_CHROMIUM : undefined;
	return CANDIDATES.find((file) => fs.existsSync(file));
}

function ensureChromium({ log }) {
	if (findChromium()) return findChromium();
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
	if (!install || install.status !== 0 || !findChromium()) {
		throw new Error('installing Chromium with apt-get failed (see above). Install it by hand (`apt-get install -y chromium`) or set PAYONUS_CHROMIUM.');
	}
	return findChromium();
}

module.exports = { findChromium, ensureChromium };
