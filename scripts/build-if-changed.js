#!/usr/bin/env node
/*
 * Builds the package (dist/) and the tooling (build/: sandbox, dev/ with
 * the harness, scripts, benches, compiled with tsconfig.dev.json) only when one of their
 * sources changed since the last build, and says what it did.
 *
 *   node scripts/build-if-changed.js [package] [tools] [--always]
 *
 * No target named: both. `npm start`, `npm run sandbox`, `npm run bench`,
 * `npm run customer` and `npm test` use it as is; `npm run build` is
 * `--always package` and `npm run build:tools` is `--always tools` (they build
 * every time, and record it, so the next `npm start` knows).
 *
 * "Changed" is by content: a fingerprint (sha1 of every input file) is taken
 * before a build and stored in .build-stamps/<target>.json once it succeeds.
 * A file saved during a build is therefore rebuilt next time, and a git
 * checkout or rebase that rewrites files without changing them builds nothing.
 */
'use strict';

const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const gulp = path.join(root, 'node_modules', 'gulp', 'bin', 'gulp.js');

const TARGETS = {
	package: {
		label: 'dist/ (package)',
		output: 'dist/credentials/PayOnUsApi.credentials.js',
		inputs: ['credentials', 'nodes', 'tsconfig.json', 'gulpfile.js', 'package.json'],
		steps: [
			[process.execPath, gulp, 'clean'],
			[process.execPath, tsc, '-p', 'tsconfig.json'],
			[process.execPath, gulp, 'build:assets'],
		],
	},
	tools: {
		label: 'build/ (tooling)',
		output: 'build/scripts/start.js',
		// what the tooling that runs from build/ is compiled from (dev/, the
		// benches and the scripts import the nodes' code; nothing there imports
		// test/); tests run from the sources under ts-jest, so changing one does
		// not rebuild build/
		inputs: ['credentials', 'nodes', 'sandbox', 'dev', 'scripts', 'bench', 'tsconfig.json', 'tsconfig.dev.json', 'package.json'],
		steps: [emptyBuildFolder, [process.execPath, tsc, '-p', 'tsconfig.dev.json'], ignoreBuildFolderInPackageLint],
	},
};

/** As `gulp clean` does for dist/: compiled files of renamed or deleted sources do not linger. */
function emptyBuildFolder() {
	fs.rmSync(path.join(root, 'build'), { recursive: true, force: true });
}

/**
 * `n8n-node lint` lints every folder but dist/, looking up the nearest
 * eslint.config.mjs: this one keeps it out of the compiled tooling.
 */
function ignoreBuildFolderInPackageLint() {
	fs.writeFileSync(path.join(root, 'build', 'eslint.config.mjs'), "export default [{ ignores: ['**/*'] }];\n");
}

const SKIPPED = new Set(['node_modules', 'results']);

/** relative path -> sha1 of the content, for every file under the inputs. */
function fingerprint(inputs) {
	const files = {};
	const visit = (rel) => {
		let stat;
		try {
			stat = fs.statSync(path.join(root, rel));
		} catch {
			return; // an optional input that does not exist
		}
		if (stat.isDirectory()) {
			for (const name of fs.readdirSync(path.join(root, rel)).sort()) {
				if (SKIPPED.has(name) || name.startsWith('.')) continue;
				visit(`${rel}/${name}`);
			}
		} else if (stat.isFile()) {
			files[rel] = crypto.createHash('sha1').update(fs.readFileSync(path.join(root, rel))).digest('hex');
		}
	};
	for (const input of inputs) visit(input);
	return files;
}

function stampPath(name) {
	return path.join(root, '.build-stamps', `${name}.json`);
}

function readStamp(name) {
	try {
		return JSON.parse(fs.readFileSync(stampPath(name), 'utf8')).files;
	} catch {
		return undefined;
	}
}

/** Why a build is needed, or undefined when the last one is still good. */
function reasonToBuild(target, before, now) {
	if (!fs.existsSync(path.join(root, target.output))) return `${target.output} is missing`;
	if (!before) return 'no record of a previous build';
	const changed = Object.keys(now).filter((f) => before[f] !== undefined && before[f] !== now[f]);
	const added = Object.keys(now).filter((f) => before[f] === undefined);
	const removed = Object.keys(before).filter((f) => now[f] === undefined);
	const all = [...changed, ...added, ...removed];
	if (all.length === 0) return undefined;
	const counts = [
		changed.length && `${changed.length} changed`,
		added.length && `${added.length} added`,
		removed.length && `${removed.length} removed`,
	].filter(Boolean);
	const names = all.slice(0, 3).join(', ') + (all.length > 3 ? ', ...' : '');
	return `${counts.join(', ')} since the last build: ${names}`;
}

function runStep(step) {
	if (typeof step === 'function') return step();
	const [cmd, ...args] = step;
	const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
	if (res.status !== 0) {
		process.stderr.write(`build failed: ${args.map((a) => path.basename(a)).join(' ')}\n`);
		process.exit(res.status ?? 1);
	}
}

function say(line) {
	process.stderr.write(`${line}\n`);
}

const argv = process.argv.slice(2);
const always = argv.includes('--always');
const unknown = argv.filter((a) => a !== '--always' && !(a in TARGETS));
if (unknown.length > 0) {
	say(`unknown argument(s): ${unknown.join(' ')}\nusage: node scripts/build-if-changed.js [package] [tools] [--always]`);
	process.exit(2);
}
const wanted = argv.filter((a) => a in TARGETS);

for (const name of wanted.length ? wanted : Object.keys(TARGETS)) {
	const target = TARGETS[name];
	const checkedAt = Date.now();
	const now = fingerprint(target.inputs);
	const reason = always ? 'asked to build' : reasonToBuild(target, readStamp(name), now);
	const count = Object.keys(now).length;
	if (!reason) {
		say(`${target.label}: up to date (${count} source files unchanged, checked in ${Date.now() - checkedAt} ms)`);
		continue;
	}
	say(`${target.label}: building (${reason})`);
	const startedAt = Date.now();
	fs.rmSync(stampPath(name), { force: true }); // a failed or interrupted build leaves no record
	for (const step of target.steps) runStep(step);
	fs.mkdirSync(path.dirname(stampPath(name)), { recursive: true });
	fs.writeFileSync(stampPath(name), `${JSON.stringify({ files: now })}\n`);
	say(`${target.label}: built in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
}
