'use strict';
/* Runs npm (or any command) with progress lines and turns its failures into one clear line. */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { VERSIONS, MIN_FREE_BYTES, PROGRESS_EVERY_MS, UserError, running, cleanEnv, say, elapsed, freeBytes, gib } = require('./common');

/** How many packages a node_modules folder holds so far (scoped ones counted one by one). */
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
		const keep = (chunk) => {
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
				if (used > 0 && Number.isFinite(used)) parts.push(`${gib(used)} written`);
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

/** One clear line for the failures a user can act on; the tail of npm's output otherwise. */
function npmFailure(what, code, output) {
	if (/ENOSPC|no space left/i.test(output)) {
		return new UserError(`${what} failed: the disk is full. Free at least ${gib(MIN_FREE_BYTES)} and run again.`);
	}
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

module.exports = { run, npmFailure, countPackages };
