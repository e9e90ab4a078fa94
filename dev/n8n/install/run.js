// @ts-check
'use strict';
/* Runs npm (or any command) with progress lines and turns its failures into one clear line. */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { VERSIONS, MIN_FREE_BYTES, PROGRESS_EVERY_MS, UserError, running, cleanEnv, say, elapsed, freeBytes, gib } = require('./common');

/**
 * How many packages a node_modules folder holds so far (scoped ones counted one by one).
 * @param {string} nodeModules
 * @returns {number}
 */
function countPackages(nodeModules) {
	let n = 0;
	let entries;
	try {
		entries = fs.readdirSync(nodeModules);
	} catch {
		return 0;
	}
	for (const name of entries) {
		if (name.startsWith('.')) continue;
		if (name.startsWith('@')) {
			try {
				n += fs.readdirSync(path.join(nodeModules, name)).length;
			} catch {
				/* vanished while counting */
			}
		} else n += 1;
	}
	return n;
}

/**
 * Runs a command, printing a progress line at least every PROGRESS_EVERY_MS
 * (what, elapsed, packages so far, disk used). Keeps the command's output for
 * the error message.
 * @param {string} what  names the step in progress lines and errors
 * @param {string} cmd
 * @param {string[]} args
 * @param {{ cwd: string, env: NodeJS.ProcessEnv, progressDir?: string, expected?: number }} opts
 *   progressDir: count the packages under its node_modules; expected: how many to expect
 * @returns {Promise<{ output: string, ms: number }>}
 */
function run(what, cmd, args, { cwd, env, progressDir, expected }) {
	return new Promise((resolve, reject) => {
		const started = Date.now();
		const freeAtStart = freeBytes(cwd);
		let lastUsed = 0;
		let lastChange = Date.now();
		const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
		running.add(child);
		child.on('exit', () => running.delete(child));
		let output = '';
		const keep = (/** @type {Buffer} */ chunk) => {
			output = (output + chunk.toString()).slice(-20_000);
		};
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		const timer = setInterval(() => {
			const parts = [`${what}: ${elapsed(started)} elapsed`];
			if (progressDir) {
				const count = countPackages(path.join(progressDir, 'node_modules'));
				if (count === 0) parts.push('resolving the dependency tree');
				else parts.push(expected ? `${count} of about ${expected} packages` : `${count} packages`);
				const used = freeAtStart - freeBytes(cwd);
				// the disk's free space is shared: with another install running beside
				// this one, the figure would count both, so it is left out
				if (used > 0 && Number.isFinite(used) && running.size === 1) parts.push(`${gib(used)} written`);
				if (Math.abs(used - lastUsed) > 1024 ** 2) {
					lastUsed = used;
					lastChange = Date.now();
				} else if (count > 0 && Date.now() - lastChange > 60_000) {
					parts.push(`nothing written for ${elapsed(lastChange)}: npm is finishing or waiting on the registry`);
				}
			}
			say(parts.join(', '));
		}, PROGRESS_EVERY_MS);
		child.on('error', (error) => {
			clearInterval(timer);
			reject(new UserError(`${what}: could not run ${cmd} (${error.message})`));
		});
		child.on('close', (code) => {
			clearInterval(timer);
			if (code === 0) resolve({ output, ms: Date.now() - started });
			else reject(npmFailure(what, code, output));
		});
	});
}

/**
 * Lines of npm's output without npm's and node-gyp's prefixes.
 * @param {string} output
 * @returns {string[]}
 */
function plainLines(output) {
	return output
		.split('\n')
		.map((line) => line.replace(/^npm (?:error|ERR!)\s?/, '').trim())
		.filter(Boolean);
}

/** node-gyp's report lines that say nothing of the cause (the command, versions, the generic "failed"). */
const GYP_NOISE = /^gyp ERR! (?:(?:configure|build) error\s*$|System |command |cwd |node -v|node-gyp -v|not ok|stack\s+at |stack Error: `(?:make|gmake)` failed)/;

/**
 * A native build (node-gyp) that failed: what failed, its first real error
 * line (the compiler's, else node-gyp's), and what to install or set.
 * @param {string} what
 * @param {string} output  npm's output
 * @returns {Error}
 */
function nativeBuildFailure(what, output) {
	const lines = plainLines(output);
	const compiler = lines.find((line) => /(?:^|\s)(?:fatal )?error:/.test(line) && !line.startsWith('gyp '));
	const at = lines.findIndex((line) => line.startsWith('gyp ERR!') && !GYP_NOISE.test(line));
	let gyp;
	if (at >= 0) {
		// an error message node-gyp wraps over several "stack" lines, up to its stack trace
		const parts = [lines[at]];
		if (lines[at].startsWith('gyp ERR! stack ')) {
			for (let i = at + 1; i < lines.length && /^gyp ERR! stack (?!\s*at )/.test(lines[i]); i++) parts.push(lines[i]);
		}
		gyp = parts.map((line) => line.replace(/^gyp ERR! (?:stack )?/, '').trim()).join(' ');
	}
	const first = compiler ?? gyp ?? (lines.find((line) => line.startsWith('gyp ERR!')) ?? '').replace(/^gyp ERR! /, '');
	let fix;
	if (/python/i.test(first)) fix = 'install Python 3 (Debian/Ubuntu: apt-get install python3) or point npm_config_python at it';
	else if (/make|g\+\+|c\+\+|cc1plus|compiler/i.test(first)) fix = 'install make and a C++ compiler (Debian/Ubuntu: apt-get install make g++)';
	else if (/network|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|download|headers/i.test(first)) {
		fix = "node-gyp tried to download Node's headers from outside the npm registry: this installer should have given it local ones, so please report this line";
	} else fix = 'the native build needs python3, make and a C++ compiler (Debian/Ubuntu: apt-get install python3 make g++)';
	return new UserError(`${what} failed: the native build (node-gyp) stopped at: ${first.replace(/\.+$/, '') || 'no error line in its output'}. To fix: ${fix}; then run again.`);
}

/**
 * One clear line for the failures a user can act on; the tail of npm's output otherwise.
 * @param {string} what
 * @param {number | null} code  npm's exit code
 * @param {string} output  npm's output
 * @returns {Error}
 */
function npmFailure(what, code, output) {
	if (/ENOSPC|no space left/i.test(output)) {
		return new UserError(`${what} failed: the disk is full. Free at least ${gib(MIN_FREE_BYTES)} and run again.`);
	}
	// before the network test: node-gyp's own messages speak of "network connectivity"
	// when it could not download headers, which is no registry request
	if (/gyp ERR!/.test(output)) return nativeBuildFailure(what, output);
	if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET|network/i.test(output) && !/ETARGET/.test(output)) {
		const registry = spawnSync('npm', ['config', 'get', 'registry'], { env: cleanEnv(), encoding: 'utf8' }).stdout?.trim();
		return new UserError(
			`${what} failed: the npm registry (${registry || 'unknown'}) cannot be reached. Check the network or \`npm config get registry\`, then run again.`,
		);
	}
	if (/ETARGET|No matching version/.test(output)) {
		const missing = /No matching version found for (\S+)/.exec(output)?.[1] ?? 'a dependency';
		return new UserError(
			`${what} failed: the registry has no ${missing.replace(/\.$/, '')}. Pick another n8n version (PAYONUS_N8N_VERSION=x.y.z); ${VERSIONS.current} is known to resolve.`,
		);
	}
	const tail = output.trim().split('\n').slice(-15).join('\n');
	return new Error(`${what} failed (exit ${code}):\n${tail}`);
}

module.exports = { run, npmFailure, nativeBuildFailure, countPackages };
