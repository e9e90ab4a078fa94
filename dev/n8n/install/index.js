#!/usr/bin/env node
// @ts-check
/*
 * Installs a real n8n (and, when that n8n needs a newer Node than the one
 * running, that Node from the npm registry) into a cache folder outside the
 * package, once. Used by `npm start`, `npm test`, the harness (dev/n8n/) and CI.
 *
 *   node dev/n8n/install                    the versions `npm test` uses (`npm run n8n:install`)
 *   node dev/n8n/install --version 2.8.4    one version ("current", "minimum" or x.y.z)
 *   node dev/n8n/install --check --json     only check; print {version, dir, bin, node, ok}
 *
 * Environment: PAYONUS_N8N_CACHE (cache root, default ~/.cache/n8n-nodes-payonus),
 * PAYONUS_N8N_VERSION / PAYONUS_N8N_VERSIONS (comma list) choose versions.
 *
 * One check decides whether an install is usable: n8n's own binary answers
 * `--version` with the expected version and sqlite3's native binding loads,
 * both with the Node that will run n8n. A broken install is repaired (native
 * builds redone, then a clean reinstall) on the next run.
 *
 * The package's own .npmrc turns install scripts off; npm hands that to child
 * processes as npm_config_ignore_scripts. This script removes every inherited
 * npm_config_* setting from the environment of the npm it runs, installs n8n
 * with scripts off (some optional dependencies try to download prebuilt
 * binaries from outside the registry and fail), then builds from source the
 * one native module n8n cannot run without (sqlite3).
 *
 * Plain JavaScript on purpose: it runs before anything is built. The
 * TypeScript harness imports it (dev/n8n/version.ts) for the versions and
 * the install folder, so both read them from here.
 *
 *   index.js   the usability check, the install itself, this command line
 *   common.js  versions (versions.json), the cache folder, clean npm environment, progress
 *   run.js     running npm with progress lines; npm's failures in one line
 *   node.js    the Node that runs n8n, and its C headers for node-gyp
 */
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {
	stopAll,
	VERSIONS,
	MIN_FREE_BYTES,
	PROGRESS_EVERY_MS,
	UserError,
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
} = require('./common');
const { run, npmFailure, countPackages } = require('./run');
const { nodeFits, nodeVersionOf, ensureNode, ensureNodeHeaders } = require('./node');
const { tryLock, releaseLock } = require('../../pidLock');

// ---------------------------------------------------------------------------
// n8n

/**
 * Where one n8n version lives in the cache.
 * @param {string} version x.y.z
 * @returns {{ dir: string, bin: string, info: string, lock: string }}
 */
function paths(version) {
	const dir = path.join(cacheRoot(), `n8n-${version}`);
	return {
		dir,
		bin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		info: path.join(dir, 'payonus-install.json'),
		lock: path.join(cacheRoot(), `n8n-${version}.lock`),
	};
}

/**
 * @param {string} file
 * @returns {any} the parsed JSON, undefined when missing or unreadable
 */
function readJson(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return undefined;
	}
}

/**
 * @typedef {object} InstallState
 * @property {string} version
 * @property {string} dir
 * @property {string} bin
 * @property {string | null} node  the Node binary that runs this n8n (null until installed)
 * @property {boolean} ok
 * @property {string} problem  why it is not usable ('' when ok)
 */

/**
 * The one usability check: n8n answers its version and sqlite3 loads, with the Node that runs n8n.
 * @param {string} version x.y.z
 * @returns {InstallState}
 */
function check(version) {
	const p = paths(version);
	const info = readJson(p.info);
	const node = info && info.node && fs.existsSync(info.node) ? info.node : undefined;
	const result = { version, dir: p.dir, bin: p.bin, node: node ?? null, ok: false, problem: '' };
	if (!fs.existsSync(p.bin)) return { ...result, problem: 'n8n is not installed' };
	if (!node) return { ...result, problem: 'the install was interrupted (no record of a finished install)' };
	const missing = missingDependencies(p.dir);
	if (missing.length > 0) return { ...result, problem: `n8n's dependencies are incomplete (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', ...' : ''} missing)` };
	const sqlite = spawnSync(node, ['-e', "require('sqlite3')"], { cwd: p.dir, encoding: 'utf8' });
	if (sqlite.status !== 0) return { ...result, problem: 'the sqlite3 native module does not load' };
	const ver = spawnSync(node, [p.bin, '--version'], {
		cwd: p.dir,
		encoding: 'utf8',
		timeout: 60_000,
		env: { ...cleanEnv(), N8N_USER_FOLDER: fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-check-')), N8N_DIAGNOSTICS_ENABLED: 'false' },
	});
	if (ver.status !== 0 || !ver.stdout.includes(version)) {
		return { ...result, problem: `n8n --version did not answer ${version} (${(ver.stderr || ver.stdout || '').trim().split('\n').pop()})` };
	}
	return { ...result, ok: true };
}

/**
 * n8n's own dependencies that are not installed (an interrupted npm install leaves some out).
 * @param {string} dir  the version's folder
 * @returns {string[]}
 */
function missingDependencies(dir) {
	const n8nDir = path.join(dir, 'node_modules', 'n8n');
	const pkg = readJson(path.join(n8nDir, 'package.json'));
	if (!pkg) return ['n8n'];
	return Object.keys(pkg.dependencies || {}).filter(
		(name) =>
			!fs.existsSync(path.join(n8nDir, 'node_modules', name, 'package.json')) &&
			!fs.existsSync(path.join(dir, 'node_modules', name, 'package.json')),
	);
}

/**
 * One installer per version at a time (npm start and npm test may both ask).
 * @template T
 * @param {string} version
 * @param {() => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function withLock(version, fn) {
	const { lock } = paths(version);
	const started = Date.now();
	let lastSaid = 0;
	for (let taken = tryLock(lock); !taken.held; taken = tryLock(lock)) {
		if (Date.now() - lastSaid >= PROGRESS_EVERY_MS) {
			say(`waiting for another install of n8n ${version} (process ${taken.holder}) to finish: ${elapsed(started)}`);
			lastSaid = Date.now();
		}
		await new Promise((r) => setTimeout(r, 1000));
	}
	heldLocks.add(lock);
	try {
		return await fn();
	} finally {
		releaseLock(lock);
		heldLocks.delete(lock);
	}
}

/**
 * sqlite3 uses Node-API: a binding built for one n8n install serves another
 * with the same sqlite3 version, on any Node. Reusing it saves a compile.
 * @param {string} dir  the version's folder
 * @param {string} node  the Node that runs this n8n
 * @returns {boolean} whether a reused build loads
 */
function reuseSqliteBuild(dir, node) {
	const want = readJson(path.join(dir, 'node_modules', 'sqlite3', 'package.json'))?.version;
	if (!want) return false;
	/** @type {string[]} */
	let entries = [];
	try {
		entries = fs.readdirSync(cacheRoot()).filter((name) => name.startsWith('n8n-') && path.join(cacheRoot(), name) !== dir);
	} catch {
		return false;
	}
	for (const name of entries) {
		const other = path.join(cacheRoot(), name, 'node_modules', 'sqlite3');
		if (readJson(path.join(other, 'package.json'))?.version !== want) continue;
		if (!fs.existsSync(path.join(other, 'build', 'Release', 'node_sqlite3.node'))) continue;
		fs.cpSync(path.join(other, 'build'), path.join(dir, 'node_modules', 'sqlite3', 'build'), { recursive: true });
		if (spawnSync(node, ['-e', "require('sqlite3')"], { cwd: dir }).status === 0) {
			say(`sqlite3 ${want}: reused the build of ${name}`);
			return true;
		}
	}
	return false;
}

/**
 * Makes sqlite3's native binding (reused from another version, else built from source).
 * @param {string} version
 * @param {string} dir  the version's folder
 * @param {string} node  the Node that runs this n8n
 */
async function rebuildSqlite(version, dir, node) {
	return oneAtATime(() => buildSqlite(version, dir, node));
}

/**
 * Steps that two installs running side by side must take one after the other:
 * fetching the Node n8n needs (one folder for every version), and sqlite3's
 * native build (the second version reuses the first one's instead of
 * compiling again).
 * @type {Promise<unknown>}
 */
let sharedStep = Promise.resolve();

/**
 * @template T
 * @param {() => Promise<T>} fn
 * @returns {Promise<T>}
 */
function oneAtATime(fn) {
	const next = sharedStep.then(fn, fn);
	sharedStep = next.catch(() => undefined);
	return next;
}

/**
 * @param {string} version
 * @param {string} dir
 * @param {string} node
 */
async function buildSqlite(version, dir, node) {
	if (reuseSqliteBuild(dir, node)) return;
	// sqlite3 uses Node-API: one build serves every Node version. Its install
	// script first tries a prebuilt download (not reachable everywhere), then
	// compiles from source with node-gyp; --build-from-source skips the download.
	// node-gyp gets the headers of the Node that runs n8n as nodedir (from that
	// Node's install or the npm registry), whatever the user's npm config says:
	// without one it downloads them from outside the registry.
	const nodedir = await ensureNodeHeaders(node);
	await run(`n8n ${version}: building sqlite3 from source`, 'npm', ['rebuild', 'sqlite3', '--build-from-source', '--ignore-scripts=false', '--loglevel=error'], {
		cwd: dir,
		env: cleanEnv({ PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}`, npm_config_nodedir: nodedir }),
	});
}

/**
 * Installs (or repairs) one version unless it is usable already.
 * @param {string} version x.y.z
 * @returns {Promise<InstallState>}
 */
async function install(version) {
	const p = paths(version);
	return withLock(version, async () => {
		let state = check(version);
		if (state.ok) return state;
		fs.mkdirSync(p.dir, { recursive: true });
		const engines = await n8nEngines(version);
		const node = await oneAtATime(() => ensureNode(engines));
		const started = Date.now();

		const free = freeBytes(cacheRoot());
		if (free < MIN_FREE_BYTES && !fs.existsSync(p.bin)) {
			throw new UserError(
				`not enough disk for n8n ${version} in ${cacheRoot()}: ${gib(free)} free, about ${gib(MIN_FREE_BYTES)} needed. Free space or set PAYONUS_N8N_CACHE to another disk.`,
			);
		}
		const repairing = fs.existsSync(path.join(p.dir, 'node_modules'));
		// An interrupted or broken install is completed in place: npm install over
		// an existing tree only adds what is missing, then the native build is redone.
		if (repairing) say(`n8n ${version} in ${p.dir} is not usable (${state.problem}): repairing`);
		else say(`installing n8n ${version} into ${p.dir} (first time only: about 5 minutes and ${gib(3 * 1024 ** 3)})`);
		fs.rmSync(p.info, { force: true });
		fs.writeFileSync(
			path.join(p.dir, 'package.json'),
			JSON.stringify(
				{
					name: 'payonus-n8n-runtime',
					private: true,
					dependencies: { n8n: version },
					// n8n's xlsx dependency points at a tarball outside the registry
					overrides: { xlsx: '0.18.5' },
				},
				null,
				2,
			),
		);
		const expected = readJson(path.join(cacheRoot(), 'package-counts.json'))?.[version];
		// a stalled download is given up after 2 minutes and retried (npm's default waits 5)
		await run(`n8n ${version}: npm install`, 'npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', '--fetch-timeout=120000', '--fetch-retries=4'], {
			cwd: p.dir,
			env: cleanEnv(),
			progressDir: p.dir,
			expected,
		});
		const counts = readJson(path.join(cacheRoot(), 'package-counts.json')) ?? {};
		counts[version] = countPackages(path.join(p.dir, 'node_modules'));
		fs.writeFileSync(path.join(cacheRoot(), 'package-counts.json'), JSON.stringify(counts, null, 2));
		await rebuildSqlite(version, p.dir, node);
		fs.writeFileSync(p.info, JSON.stringify({ version, node, installedAt: new Date().toISOString(), ms: Date.now() - started }, null, 2));
		state = check(version);
		if (!state.ok) throw new Error(`n8n ${version} installed but not usable: ${state.problem}`);
		say(`n8n ${version} ready in ${elapsed(started)} (${p.dir}, Node ${nodeVersionOf(node)})`);
		return state;
	});
}

/**
 * Installs several versions side by side: their downloads overlap, the steps
 * they share run one at a time (see oneAtATime). Each version is usable when
 * this resolves; the first failure stops the other installs (the next run
 * completes them) and rejects it.
 * @param {string[]} versions
 * @returns {Promise<InstallState[]>}
 */
async function installAll(versions) {
	try {
		return await Promise.all(versions.map((version) => install(version)));
	} catch (error) {
		// one failed: the others are stopped rather than left writing to the cache after we exit
		stopAll();
		throw error;
	}
}

/**
 * The Node versions n8n `version` runs on (its package.json's engines.node).
 * @param {string} version
 * @returns {Promise<string>}
 */
async function n8nEngines(version) {
	const installed = readJson(path.join(paths(version).dir, 'node_modules', 'n8n', 'package.json'));
	if (installed?.engines?.node) return installed.engines.node;
	const res = spawnSync('npm', ['view', `n8n@${version}`, 'engines.node'], { env: cleanEnv(), encoding: 'utf8' });
	if (res.status !== 0) throw npmFailure(`looking up n8n ${version}`, res.status, `${res.stdout}\n${res.stderr}`);
	const engines = (res.stdout.trim().split('\n').pop() ?? '').replace(/^'|'$/g, '');
	if (!engines) throw new UserError(`the npm registry knows no n8n ${version}`);
	return engines;
}

async function main() {
	const argv = process.argv.slice(2);
	const flag = (/** @type {string} */ name) => {
		const i = argv.indexOf(name);
		return i >= 0 ? argv[i + 1] : undefined;
	};
	const versions = flag('--version') ? [resolveVersion(flag('--version'))] : testVersions();
	const json = argv.includes('--json');
	const results = argv.includes('--check') ? versions.map((version) => check(version)) : await installAll(versions);
	if (json) process.stdout.write(`${JSON.stringify(versions.length === 1 ? results[0] : results)}\n`);
	else for (const r of results) say(r.ok ? `n8n ${r.version} ready (${r.dir})` : `n8n ${r.version}: ${r.problem}`);
	if (results.some((r) => !r.ok)) process.exitCode = 1;
}

module.exports = { check, install, installAll, oneAtATime, paths, resolveVersion, testVersions, cacheRoot, npmFailure, nodeFits, UserError, VERSIONS };

if (require.main === module) {
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => interrupted(signal));
	main().catch((error) => {
		if (error instanceof UserError) say(error.message);
		else say(error.message || String(error));
		process.exit(1);
	});
}
