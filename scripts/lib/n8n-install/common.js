'use strict';
/*
 * The n8n installer's shared ground: versions, the cache folder, the clean
 * npm environment, progress lines, and the child processes and locks to
 * release when the installer is interrupted. Plain JavaScript: it runs
 * before anything is built.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { releaseLock } = require('../pidLock');

const VERSIONS = require('../../n8n-versions.json');
const MIN_FREE_BYTES = 4 * 1024 ** 3; // n8n 2.41 takes ~2.9 GB installed, npm's cache more
const PROGRESS_EVERY_MS = Number(process.env.PAYONUS_PROGRESS_MS || 10_000);

class UserError extends Error {}

/** Child processes to end (with their own children) when this installer is interrupted. */
const running = new Set();
const heldLocks = new Set();
function interrupted(signal) {
	for (const child of running) {
		try {
			process.kill(-child.pid, 'SIGKILL');
		} catch {
			/* gone */
		}
	}
	for (const lock of heldLocks) releaseLock(lock);
	say(`interrupted (${signal}); the next run completes the install`);
	process.exit(130);
}

function cacheRoot() {
	return process.env.PAYONUS_N8N_CACHE || path.join(os.homedir(), '.cache', 'n8n-nodes-payonus');
}

function resolveVersion(name) {
	if (!name || name === 'current') return VERSIONS.current;
	if (name === 'minimum') return VERSIONS.minimum;
	if (!/^\d+\.\d+\.\d+$/.test(name)) throw new UserError(`n8n version "${name}" is not current, minimum or x.y.z`);
	return name;
}

/** The versions `npm test` runs on unless narrowed by PAYONUS_N8N_VERSIONS / PAYONUS_N8N_VERSION. */
function testVersions() {
	const list = process.env.PAYONUS_N8N_VERSIONS || process.env.PAYONUS_N8N_VERSION;
	const names = list ? list.split(',').map((s) => s.trim()).filter(Boolean) : ['current', 'minimum'];
	return [...new Set(names.map(resolveVersion))];
}

/** npm without the settings npm passes to scripts (ignore-scripts from our .npmrc among them). */
function cleanEnv(extra = {}) {
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

function say(line) {
	process.stderr.write(`[n8n install] ${line}\n`);
}

function elapsed(since) {
	const s = Math.round((Date.now() - since) / 1000);
	return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

function freeBytes(dir) {
	try {
		const st = fs.statfsSync(dir);
		return st.bavail * st.bsize;
	} catch {
		return Infinity;
	}
}

function gib(bytes) {
	return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

module.exports = {
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
