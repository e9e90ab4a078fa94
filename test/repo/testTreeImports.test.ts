/**
 * The test tree is no tool library: no file outside test/ imports from it.
 * What tests, benches and scripts share (the n8n installer and harness, the
 * Chromium lookup, credentials, workflows, sandbox scenarios, waits) lives in
 * dev/; test/ keeps what only tests use (jest set-up, fakes, test fixtures).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { ROOT, sourceFiles } from './repoFiles';

/** The module names a source file imports: import/export ... from, import(), require(), jest.mock(), bare `import '...'`. */
function specifiers(source: string): string[] {
	const pattern = /\bfrom\s*['"]([^'"]+)['"]|\b(?:import|require|jest\.mock)\s*\(\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;
	return [...source.matchAll(pattern)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** The imports of `file` (a path relative to the root) that resolve inside `folder` (relative to the root). */
function importsInto(file: string, source: string, folder: string): string[] {
	const inside = join(ROOT, folder) + sep;
	return specifiers(source).filter((name) => name.startsWith('.') && `${resolve(ROOT, dirname(file), name)}${sep}`.startsWith(inside));
}

/** Every source file outside test/ (relative paths). */
function sourcesOutsideTest(): string[] {
	return sourceFiles({ skip: new Set(['test']) });
}

describe('imports into test/', () => {
	it('are recognised in every form a file can import', () => {
		const source = [
			"import { startN8n } from '../test/harness/n8n';",
			"import type { Execution } from '../test/harness/n8n/execution';",
			"export * from '../test/unit/fakes';",
			"const { sleep } = await import('../test/harness/wait');",
			"const installer = require('../test/x.js');",
			"jest.mock('../test/unit/fakes/transport');",
			"import '../test/setup';",
			"import { startSandbox } from '../sandbox/server';",
			"import { sleep } from '../dev/wait';",
			"import { readFileSync } from 'node:fs';",
			"import { other } from '../tests/elsewhere';",
		].join('\n');
		expect(importsInto('bench/drill.ts', source, 'test')).toEqual([
			'../test/harness/n8n',
			'../test/harness/n8n/execution',
			'../test/unit/fakes',
			'../test/harness/wait',
			'../test/x.js',
			'../test/unit/fakes/transport',
			'../test/setup',
		]);
		expect(importsInto('scripts/lib/editor.ts', "import { a } from '../../test/harness/chromium';", 'test')).toEqual(['../../test/harness/chromium']);
		expect(importsInto('jest.config.js', "require('./test/harness/jest-global-setup')", 'test')).toEqual(['./test/harness/jest-global-setup']);
		expect(importsInto('test/unit/a.test.ts', "import { b } from './b';", 'test')).toEqual(['./b']);
	});

	it('come from no file outside test/', () => {
		const files = sourcesOutsideTest();
		const offenders = files.flatMap((file) => importsInto(file, readFileSync(join(ROOT, file), 'utf8'), 'test').map((name) => `${file}: ${name}`));
		expect(offenders).toEqual([]);
		// the scan reads the real tree: the tools, benches and scripts do import what they share, from dev/
		const fromDev = files.filter((file) => importsInto(file, readFileSync(join(ROOT, file), 'utf8'), 'dev').length > 0);
		expect(fromDev).toEqual(expect.arrayContaining(['scripts/start.ts', 'scripts/test.js', 'bench/common.ts']));
	});
});
