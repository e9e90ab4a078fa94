import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import * as ts from 'typescript';
import { repositoryPaths, SOURCE_FILE } from './repoFiles';

/**
 * Every repository path a comment names exists (issue 25: no comment points
 * at a file that is not there). The comments of nodes/, credentials/,
 * sandbox/, scripts/, bench/ and test/ are read with TypeScript's own parser
 * (a string or a line of code is not a comment). A path is a word with a
 * folder part or a file extension: `nodes/shared/redact.ts`,
 * `shared/api/paths.ts`, `../unit/fakes/index.ts`, `../harness/`, `DESIGN.md`.
 *
 * Where a path is looked for:
 *  - a path starting with ./ or ../: from the comment's folder only (also
 *    with .ts or /index.ts added);
 *  - any other: from the comment's folder or any folder above it up to the
 *    repository root, or as the end of a path in the parts of the repository
 *    the file may name (AREAS: the nodes and the credential name nodes/,
 *    credentials/ and docs/; the sandbox, sandbox/ and docs/; tests, scripts
 *    and benches, anything);
 *  - under dist/ or build/ (compiled output): as its TypeScript source.
 * Not this repository's paths: n8n's own files (N8N_FILES), folders made at
 * run time (MADE_AT_RUN_TIME) and module names quoted in example code
 * (`import { x } from '../unit/fakes/transport'`).
 */

const root = join(__dirname, '..', '..');

/** The folders whose comments are read. */
const READ = ['nodes', 'credentials', 'sandbox', 'scripts', 'bench', 'test', 'dev'];

/** The parts of the repository a file in each top folder may name by the end of a path. */
const AREAS: Record<string, string[] | 'all'> = {
	nodes: ['nodes', 'credentials', 'docs'],
	credentials: ['nodes', 'credentials', 'docs'],
	sandbox: ['sandbox', 'docs'],
};

/** Files of n8n itself that comments name where the code relies on their behaviour. */
const N8N_FILES = new Set(['request-helper-functions.js', 'request-helpers/authentication.js', 'tool-generation/ai-tools.js']);
/** Folders that exist only once a command made them. */
const MADE_AT_RUN_TIME = new Set(['./.payonus-start/', 'package/']);
/** Words that look like a file name and are not one. */
const NOT_PATHS = new Set(['Node.js']);

const allPaths = repositoryPaths();

/** The comments of a TypeScript or JavaScript text, each with the line it starts on (1-based). */
function commentsOf(fileName: string, text: string): Array<{ text: string; line: number }> {
	const kind = /\.ts$/.test(fileName) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
	const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
	const found = new Map<number, string>();
	const take = (ranges: ts.CommentRange[] | undefined): void => {
		for (const r of ranges ?? []) found.set(r.pos, text.slice(r.pos, r.end));
	};
	const visit = (node: ts.Node): void => {
		take(ts.getLeadingCommentRanges(text, node.getFullStart()));
		take(ts.getTrailingCommentRanges(text, node.getEnd()));
		node.forEachChild(visit);
	};
	visit(source);
	take(ts.getLeadingCommentRanges(text, source.endOfFileToken.getFullStart()));
	return [...found.entries()]
		.sort(([a], [b]) => a - b)
		.map(([pos, comment]) => ({ text: comment, line: source.getLineAndCharacterOfPosition(pos).line + 1 }));
}

const EXTENSIONS = 'ts|js|mjs|cjs|json|md|yml|yaml|csv|svg|html';
const PATH = new RegExp(
	[
		// relative: dot-slash or dot-dot-slash, then folders and maybe a name
		String.raw`(?:\.{1,2}\/)+(?:[\w.-]+\/)*(?:[\w.-]+)?`,
		// a path from a top folder of the repository, with or without an extension
		String.raw`(?:nodes|credentials|sandbox|scripts|bench|test|docs|examples)(?:\/[\w.-]+)+\/?`,
		// folders then a file name with one of the extensions
		String.raw`(?:[\w-]+\/)+[\w.-]*\.(?:${EXTENSIONS})`,
		// folders ending with a slash (followed by a space, a punctuation mark or the end)
		String.raw`(?:[\w-]+\/)+(?=[\s),;:'"\`]|$)`,
		// a bare file name of code or documentation
		String.raw`[\w.-]+\.(?:ts|js|mjs|cjs|md)`,
	]
		.map((p) => `(?:${p})`)
		.join('|'),
);
const CANDIDATE = new RegExp(String.raw`(?<![\w@/.:$*<>{'"-])(${PATH.source})(?![\w/<*{])`, 'g');

/** The paths a comment names (trailing full stops dropped), each with its line offset in the comment. */
function pathsIn(comment: string): Array<{ path: string; lineOffset: number }> {
	const out: Array<{ path: string; lineOffset: number }> = [];
	for (const m of comment.matchAll(CANDIDATE)) {
		const path = m[1].replace(/\.+$/, '');
		if (path === '' || NOT_PATHS.has(path)) continue;
		out.push({ path, lineOffset: comment.slice(0, m.index).split('\n').length - 1 });
	}
	return out;
}

function exists(path: string): boolean {
	const p = path.replace(/\/$/, '');
	return [p, `${p}.ts`, `${p}/index.ts`].some((c) => existsSync(join(root, c)));
}

/** Whether `path`, named in a comment of `file` (relative to the root), is a path of the repository. */
function resolves(file: string, path: string): boolean {
	if (N8N_FILES.has(path) || MADE_AT_RUN_TIME.has(path)) return true;
	const folder = dirname(file);
	if (path.startsWith('./') || path.startsWith('../')) return exists(posix.join(folder, path));
	const compiled = /^(dist|build)\//.exec(path);
	if (compiled) return path === `${compiled[1]}/` || resolves(file, path.slice(compiled[0].length).replace(/\.js$/, '.ts'));
	for (let dir = folder; ; dir = dirname(dir)) {
		if (exists(posix.join(dir, path))) return true;
		if (dir === '.' || dir === '' || dir === '/') break;
	}
	const area = AREAS[file.split('/')[0]] ?? 'all';
	const tail = path.endsWith('/') ? path : path.replace(/^\/+/, '');
	return allPaths.some((p) => (p === tail || p.endsWith(`/${tail}`)) && (area === 'all' || area.some((a) => p.startsWith(`${a}/`))));
}

/** The source files whose comments are read. */
function sources(): string[] {
	return READ.flatMap((top) => allPaths.filter((p) => p.startsWith(`${top}/`) && SOURCE_FILE.test(p)));
}

/** "file:line: path" for every path named in a comment of `file` that is not there. */
function missingIn(file: string, text: string): string[] {
	const out: string[] = [];
	for (const comment of commentsOf(file, text)) {
		for (const { path, lineOffset } of pathsIn(comment.text)) {
			if (!resolves(file, path)) out.push(`${file}:${comment.line + lineOffset}: ${path}`);
		}
	}
	return out;
}

describe('paths named in comments', () => {
	it('the checker: comments only, and a made-up path is told from a real one', () => {
		const code = [
			'const s = "// nodes/shared/made-up-in-a-string.ts";',
			'// see nodes/shared/made-up.ts and nodes/shared/redact.ts.',
			'/** The contract: shared/moneyMoving/send.ts, not shared/api/lookup.ts; (./redact.ts) */',
			'const t = `${s} // nodes/also-a-string.ts`; // ./accessToken/ and transport.ts',
			"// example: import { x } from './made-up-module';",
		].join('\n');
		expect(missingIn('nodes/shared/example.ts', code)).toEqual([
			'nodes/shared/example.ts:2: nodes/shared/made-up.ts',
			'nodes/shared/example.ts:3: shared/api/lookup.ts',
			'nodes/shared/example.ts:4: transport.ts',
		]);
		expect(pathsIn('// docs/DESIGN.md, ./x.ts, ../y/, a/b/ and/or Node.js, e.g. 2.41 and https://x.io/a/b.ts')).toEqual([
			{ path: 'docs/DESIGN.md', lineOffset: 0 },
			{ path: './x.ts', lineOffset: 0 },
			{ path: '../y/', lineOffset: 0 },
			{ path: 'a/b/', lineOffset: 0 },
		]);
		// A bare name is found by its folder, a folder above, or (nodes) under nodes/, credentials/ or docs/.
		expect(resolves('nodes/PayOnUs/resources/payout/csv.ts', 'parameters.ts')).toBe(true);
		expect(resolves('nodes/PayOnUs/resources/payout/csv.ts', 'DESIGN.md')).toBe(true);
		expect(resolves('nodes/PayOnUs/run/concurrency.ts', 'transport.ts')).toBe(false);
		expect(resolves('nodes/PayOnUs/PayOnUs.node.ts', 'build/nodes/PayOnUs/PayOnUs.node.js')).toBe(true);
	});

	const files = sources();
	it('reads the comments of every folder it should', () => {
		for (const top of READ) expect(files.some((f) => f.startsWith(`${top}/`))).toBe(true);
		expect(files).toContain('test/repo/commentPaths.test.ts');
	});

	it('every repository path a comment names exists', () => {
		const missing = files.flatMap((f) => missingIn(f, readFileSync(join(root, f), 'utf8')));
		expect(missing).toEqual([]);
	});
});
