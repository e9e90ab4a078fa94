// @ts-check
'use strict';
/*
 * The n8n installer's shared ground: versions (versions.json), the cache
 * folder, the clean npm environment, progress lines, and the child processes
 * and locks to release when the installer is interrupted. Plain JavaScript:
 * it runs before anything is built.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { releaseLock } = require('../../pidLock');

const VERSIONS = require('./versions.json');
const MIN_FREE_BYTES = 4 * 1024 ** 3; // n8n 2.41 takes ~2.9 GB installed, npm's cache more
const PROGRESS_EVERY_MS = Number(process.env.PAYONUS_PROGRESS_MS || 10_000);

class UserError extends Error {}

/**
 * Child processes to end (with their own children) when this installer is interrupted.
 * @type {Set<import('node:child_process').ChildProcess>}
 */
const running = new Set();
/** @type {Set<string>} lock files this installer holds */
const heldLocks = new Set();
/** Ends every running npm (with its own children) and releases the locks: the next run completes the install. */
function stopAll() {
	for (const child of running) {
		try {
			process.kill(-(/** @type {number} */ (child.pid)), 'SIGKILL');
		} catch {
			/* gone */
		}
	}
	for (const lock of heldLocks) releaseLock(lock);
}

/**
 * Stops the installs and exits.
 * @param {string} signal
 */
function interrupted(signal) {
	stopAll();
	say(`interrupted (${signal}); the next run completes the install`);
	process.exit(130);
}

/**
 * The cache folder every n8n version is installed under: PAYONUS_N8N_CACHE, else ~/.cache/n8n-nodes-payonus.
 * @returns {string}
 */
function cacheRoot() {
	return process.env.PAYONUS_N8N_CACHE || path.join(os.homedir(), '.cache', 'n8n-nodes-payonus');
}

/**
 * `current`, `minimum` (versions.json) or x.y.z as x.y.z; nothing named is `current`.
 * @param {string | undefined} name
 * @returns {string}
 */
function resolveVersion(name) {
	if (!name || name === 'current') return VERSIONS.current;
	if (name === 'minimum') return VERSIONS.minimum;
	if (!/^\d+\.\d+\.\d+$/.test(name)) throw new UserError(`n8n version "${name}" is not current, minimum or x.y.z`);
	return name;
}

/**
 * The versions `npm test` runs on unless narrowed by PAYONUS_N8N_VERSIONS / PAYONUS_N8N_VERSION.
 * @returns {string[]}
 */
function testVersions() {
	const list = process.env.PAYONUS_N8N_VERSIONS || process.env.PAYONUS_N8N_VERSION;
	const names = list ? list.split(',').map((s) => s.trim()).filter(Boolean) : ['current', 'minimum'];
	return [...new Set(names.map(resolveVersion))];
}

/**
 * npm without the settings npm passes to scripts (ignore-scripts from our .npmrc among them).
 * @param {NodeJS.ProcessEnv} [extra]
 * @returns {NodeJS.ProcessEnv}
 */
function cleanEnv(extra = {}) {
	/** @type {NodeJS.ProcessEnv} */
	const env = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (/^npm_/i.test(key)) continue;
		env[key] = value;
	}
	env.NPM_CONFIG_FUND = 'false';
	env.NPM_CONFIG_AUDIT = 'false';
	env.NPM_CONFIG_UPDATE_NOTIFIER = 'false';
	return { ...env, ...extra };
}

/** @param {string} line */
function say(line) {
	process.stderr.write(`[n8n install] ${line}\n`);
}

/**
 * @param {number} since epoch milliseconds
 * @returns {string} like 42s or 3m05s
 */
function elapsed(since) {
	const s = Math.round((Date.now() - since) / 1000);
	return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/**
 * @param {string} dir
 * @returns {number} bytes free on its disk (Infinity when unknown)
 */
function freeBytes(dir) {
	try {
		const st = fs.statfsSync(dir);
		return st.bavail * st.bsize;
	} catch {
		return Infinity;
	}
}

/**
 * @param {number} bytes
 * @returns {string}
 */
function gib(bytes) {
	return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

module.exports = {
	stopAll,
	VERSIONS,
	MIN_FREE_BYTES,
	PROGRESS_EVERY_MS,
	UserError,
	running,
	heldLocks,
	interrupted,
	cacheRoot,
	resolveVersion,
	testVersions,
	cleanEnv,
	say,
	elapsed,
	freeBytes,
	gib,
};
