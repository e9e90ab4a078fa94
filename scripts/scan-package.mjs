#!/usr/bin/env node
// npm run scan: n8n's community-package scanner (@n8n/scan-community-package),
// run locally on
//   (a) the sources: package.json plus nodes/ and credentials/, the files the
//       scanner lints in the source checkout named by the npm provenance, and
//   (b) the packed tarball: `npm pack` into a temp folder, extracted, scanned
//       the way the scanner scans a published version (compiled .js + package.json).
// Inline eslint-disable comments are ignored, as in the scanner. Prints every
// finding (errors and warnings) and exits 1 on any error, or when the tarball
// lacks a file package.json points n8n at.
//
// Usage: node scripts/scan-package.mjs [--sources] [--tarball]   (default: both)
// The tarball leg packs dist/ as it is: run `npm run build` first.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--sources' && a !== '--tarball');
if (unknown.length > 0) {
	console.error(`unknown argument(s): ${unknown.join(' ')}\nusage: node scripts/scan-package.mjs [--sources] [--tarball]`);
	process.exit(2);
}
const legs = args.length === 0 ? ['--sources', '--tarball'] : args;

// The scanner makes a temp folder when it is loaded and never removes it:
// point it (and our own pack/extract folder) into one folder removed at exit.
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'payonus-scan-'));
process.on('exit', () => fs.rmSync(work, { recursive: true, force: true }));
process.env.TMPDIR = work;

const scanner = await import('@n8n/scan-community-package/scanner/scanner.mjs');
const { ESLint } = await import('eslint');

/** Files under dir (node_modules skipped), as paths relative to dir with '/'. */
function walk(dir, rel = '') {
	const out = [];
	for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
		const r = rel ? `${rel}/${entry.name}` : entry.name;
		if (entry.isDirectory()) {
			if (entry.name !== 'node_modules') out.push(...walk(dir, r));
		} else if (entry.isFile()) {
			out.push(r);
		}
	}
	return out;
}

/**
 * Lints `files` (relative to dir) with the scanner's own config and options,
 * the way its analyzePackage does, but keeps the warnings too (the scanner
 * prints its report only when there are errors).
 */
async function lint(dir, files) {
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await scanner.buildScanConfig(),
	});
	return await eslint.lintFiles(files.map((f) => path.join(dir, f)));
}

async function scan(label, dir, files, scannerPatterns) {
	console.log(`\n== ${label}: ${files.length} files`);
	const results = await lint(dir, files);
	let errors = 0;
	let warnings = 0;
	for (const r of results) {
		for (const m of r.messages) {
			const severity = m.severity === 2 ? 'error' : 'warning';
			if (m.severity === 2) errors++;
			else warnings++;
			const where = `${path.relative(dir, r.filePath)}:${m.line ?? 0}:${m.column ?? 0}`;
			console.log(`  ${severity.padEnd(7)} ${where}  ${m.message}  (${m.ruleId ?? 'parser'})`);
		}
	}
	// The scanner's own verdict on the same folder, to catch any drift
	// between this listing and what n8n runs.
	const verdict = await scanner.analyzePackage(dir, scannerPatterns);
	console.log(`   ${errors} error(s), ${warnings} warning(s); scanner verdict: ${verdict.passed ? 'passed' : `FAILED (${verdict.message})`}`);
	if (!verdict.passed && verdict.details) console.log(verdict.details);
	if (verdict.passed !== (errors === 0)) {
		console.log('   the scanner and this listing disagree: treated as an error');
		return errors + 1;
	}
	return errors;
}

function run(cmd, cmdArgs, cwd) {
	const r = spawnSync(cmd, cmdArgs, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
	if (r.status !== 0) {
		throw new Error(`${cmd} ${cmdArgs.join(' ')} failed (${r.status ?? r.signal}):\n${r.stderr}`);
	}
	return r.stdout;
}

let failures = 0;

if (legs.includes('--sources')) {
	const inSources = (f) => f === 'package.json' || /^(nodes|credentials)\/.*\.(js|ts|json)$/.test(f);
	const files = walk(root).filter(inSources);
	failures += await scan('sources (package.json, nodes/, credentials/)', root, files, scanner.SOURCE_FILE_PATTERNS);
}

if (legs.includes('--tarball')) {
	const packDir = path.join(work, 'pack');
	const pkgDir = path.join(work, 'package');
	fs.mkdirSync(packDir);
	fs.mkdirSync(pkgDir);
	const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', packDir], root));
	const tarball = path.join(packDir, packed[0].filename);
	run('tar', ['-xzf', tarball, '-C', pkgDir, '--strip-components=1'], root);
	const files = walk(pkgDir);
	const manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
	const entries = [manifest.main, ...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])].filter(Boolean);
	const missing = entries.filter((e) => !files.includes(path.posix.normalize(e)));
	console.log(`\n== tarball ${packed[0].filename}: ${files.length} files, ${packed[0].size} bytes packed`);
	if (missing.length > 0) {
		console.log(`  error   package.json points at files the tarball lacks (run npm run build?): ${missing.join(', ')}`);
		failures += missing.length;
	}
	const scanned = files.filter((f) => f.endsWith('.js') || f === 'package.json');
	failures += await scan('tarball (compiled .js + package.json)', pkgDir, scanned, ['**/*.js', 'package.json']);
}

console.log(failures === 0 ? '\nscan: passed' : `\nscan: FAILED (${failures} error(s))`);
process.exit(failures === 0 ? 0 : 1);
