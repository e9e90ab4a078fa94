import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The repository's own files, for the tests that read the whole tree
 * (commentPaths, docsLinks, testTreeImports): one walk, one list of what is
 * not the repository's own (installs, builds, results, run-time state).
 */

export const ROOT = join(__dirname, '..', '..');

/** Folders that are not the repository's sources: installs, compiled output, results and what commands leave at run time. */
export const NOT_SOURCES = new Set([
	'node_modules',
	'.git',
	'dist',
	'build',
	'results',
	'.build-stamps',
	'.payonus-start',
	'.n8n-e2e',
	'.jest-results',
	'coverage',
]);

/** A TypeScript or JavaScript source file. */
export const SOURCE_FILE = /\.(ts|js|mjs|cjs)$/;

/**
 * Every file and folder under `under` (relative to the root, '' for all;
 * folders end with "/"), skipping NOT_SOURCES and the folder names in `skip`.
 */
export function repositoryPaths(options: { under?: string; skip?: ReadonlySet<string> } = {}): string[] {
	const out: string[] = [];
	const walk = (dir: string): void => {
		for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
			if (NOT_SOURCES.has(entry.name) || options.skip?.has(entry.name)) continue;
			const path = dir ? `${dir}/${entry.name}` : entry.name;
			if (entry.isDirectory()) {
				out.push(`${path}/`);
				walk(path);
			} else out.push(path);
		}
	};
	walk(options.under ?? '');
	return out;
}

/** The source files under `under` (see repositoryPaths). */
export function sourceFiles(options: { under?: string; skip?: ReadonlySet<string> } = {}): string[] {
	return repositoryPaths(options).filter((path) => !path.endsWith('/') && SOURCE_FILE.test(path));
}
