#!/usr/bin/env node
/*
 * `npm test`: everything a change must pass, the way CI runs it.
 *
 *   1. preflight: Chromium is there (Debian's package is installed when this
 *      machine allows it), and the n8n versions the end-to-end suite runs on
 *      start installing (or repairing), side by side, with progress;
 *   2. build (only what changed) and typecheck, while n8n installs;
 *   3. unit tests (under zod 3 and again under zod 4) and sandbox tests (jest),
 *      while n8n installs; a failed install stops the run at once, naming
 *      what is missing;
 *   4. the end-to-end suite in a real n8n, once per n8n version
 *      (current and minimum; PAYONUS_N8N_VERSIONS=current narrows it), after
 *      every install is usable;
 *   5. one summary line: "N passed, N failed, N skipped".
 *
 * Flags: --unit-only (skip 1 and 4), --e2e-only (skip 3).
 */
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const installer = require('../dev/n8n/install');
const { findChromium, ensureChromium } = require('../dev/chromium');

const root = path.resolve(__dirname, '..');
const results = path.join(root, '.jest-results');
const args = new Set(process.argv.slice(2));
const started = Date.now();

function step(text) {
	process.stdout.write(`\n=== [${Math.round((Date.now() - started) / 1000)}s] ${text}\n`);
}

/** The step's process now running (stopped when an install fails meanwhile). */
let current = null;

/** Runs one step's command (asynchronously: n8n installs meanwhile); resolves its exit status. */
function run(cmd, argv, env = {}) {
	return new Promise((resolve) => {
		const child = spawn(cmd, argv, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
		current = child;
		child.on('error', () => resolve(1));
		child.on('close', (code) => {
			current = null;
			resolve(code ?? 1);
		});
	});
}

function fail(line) {
	current?.kill('SIGTERM');
	process.stderr.write(`\nnpm test: ${line}\n`);
	process.exit(1);
}

async function main() {
	const versions = installer.testVersions();
	const unit = !args.has('--e2e-only');
	const e2e = !args.has('--unit-only');

	/** @type {Promise<void> | undefined} */
	let installed;
	if (e2e) {
		step(`preflight: Chromium; n8n ${versions.join(' and ')} installing while the build and the unit tests run`);
		try {
			ensureChromium({ log: (line) => process.stdout.write(`${line}\n`) });
		} catch (error) {
			fail(error.message);
		}
		process.stdout.write(`Chromium: ${findChromium()}\n`);
		const installing = Date.now();
		installed = installer.installAll(versions).then(
			() => process.stdout.write(`\nnpm test: n8n ${versions.join(' and ')} usable (${Math.round((Date.now() - installing) / 1000)} s)\n`),
			(error) => fail(error.message),
		);
	}

	step('build (what changed) and typecheck');
	if ((await run('node', ['scripts/build-if-changed.js'])) !== 0) fail('the build failed');
	if ((await run('npm', ['run', '-s', 'typecheck'])) !== 0) fail('typecheck failed');

	fs.rmSync(results, { recursive: true, force: true });
	fs.mkdirSync(results, { recursive: true });
	const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
	let failedRuns = 0;

	if (unit) {
		step('unit and sandbox tests');
		failedRuns += (await run('node', [jest, '--selectProjects', 'unit', 'unit-zod4', 'sandbox', '--json', `--outputFile=${path.join(results, 'unit.json')}`])) === 0 ? 0 : 1;
	}
	if (e2e) {
		step(`waiting for n8n ${versions.join(' and ')} to be usable`);
		await installed;
		for (const version of versions) {
			step(`end-to-end tests in a real n8n ${version}`);
			const status = await run(
				'node',
				[jest, '--selectProjects', 'e2e', '--runInBand', '--json', `--outputFile=${path.join(results, `e2e-${version}.json`)}`],
				{ PAYONUS_N8N_VERSION: version, PAYONUS_CHROMIUM: findChromium() },
			);
			failedRuns += status === 0 ? 0 : 1;
		}
	}

	step('summary');
	let passed = 0;
	let failed = 0;
	let skipped = 0;
	for (const file of fs.readdirSync(results).filter((f) => f.endsWith('.json'))) {
		const r = JSON.parse(fs.readFileSync(path.join(results, file), 'utf8'));
		process.stdout.write(`${file.replace(/\.json$/, '').padEnd(14)} ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped (${r.numTotalTestSuites} suites)\n`);
		passed += r.numPassedTests;
		failed += r.numFailedTests;
		skipped += r.numPendingTests;
		if (r.numRuntimeErrorTestSuites > 0) failed += r.numRuntimeErrorTestSuites;
	}
	process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
	if (failedRuns > 0 || failed > 0) process.exit(1);
}

main().catch((error) => fail(error.stack || String(error)));
