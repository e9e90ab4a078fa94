#!/usr/bin/env node
/*
 * Builds the package (dist/) and the tools (build/: sandbox, harness, scripts,
 * benches) only when one of their sources changed since the last successful
 * build. `npm start`, `npm run sandbox`, `npm run bench` and `npm test` use it;
 * `npm run build` always builds.
 *
 *   node scripts/build-if-changed.js [package] [tools]   (default: both)
 */
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

const TARGETS = {
	package: {
		stamp: '.build-stamps/package',
		output: 'dist/credentials/PayOnUsApi.credentials.js',
		inputs: ['credentials', 'nodes', 'tsconfig.json', 'gulpfile.js', 'package.json'],
		script: 'build',
	},
	tools: {
		stamp: '.build-stamps/tools',
		output: 'build/scripts/start.js',
		inputs: ['credentials', 'nodes', 'sandbox', 'scripts', 'bench', 'test/harness', 'test/e2e', 'tsconfig.json', 'tsconfig.run.json', 'tsconfig.tools.json', 'package.json'],
		script: 'build:tools',
	},
};

function newestMtime(entry) {
	let stat;
	try {
		stat = fs.statSync(entry);
	} catch {
		return 0;
	}
	if (!stat.isDirectory()) return stat.mtimeMs;
	let newest = stat.mtimeMs; // a deleted file changes its folder's mtime
	for (const name of fs.readdirSync(entry)) {
		if (name === 'node_modules' || name === 'results' || name.startsWith('.')) continue;
		newest = Math.max(newest, newestMtime(path.join(entry, name)));
	}
	return newest;
}

function upToDate(target) {
	if (!fs.existsSync(path.join(root, target.output))) return false;
	let stamp;
	try {
		stamp = fs.statSync(path.join(root, target.stamp)).mtimeMs;
	} catch {
		return false;
	}
	return target.inputs.every((input) => newestMtime(path.join(root, input)) <= stamp);
}

const wanted = process.argv.slice(2).filter((a) => a in TARGETS);
for (const name of wanted.length ? wanted : Object.keys(TARGETS)) {
	const target = TARGETS[name];
	if (upToDate(target)) continue;
	process.stderr.write(`building ${name} (${target.inputs.filter((i) => fs.existsSync(path.join(root, i))).slice(0, 4).join(', ')}... changed)\n`);
	const startedAt = Date.now();
	const res = spawnSync('npm', ['run', '-s', target.script], { cwd: root, stdio: 'inherit' });
	if (res.status !== 0) process.exit(res.status ?? 1);
	fs.mkdirSync(path.dirname(path.join(root, target.stamp)), { recursive: true });
	// stamped with the time the build started: a file saved during the build triggers the next one
	fs.writeFileSync(path.join(root, target.stamp), '');
	fs.utimesSync(path.join(root, target.stamp), new Date(startedAt), new Date(startedAt));
}
