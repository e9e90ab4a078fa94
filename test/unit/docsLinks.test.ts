import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { repositoryPaths, sourceFiles } from './repoFiles';

/**
 * Every relative link and #anchor of the project's documentation lands on a
 * file that exists and, for a Markdown page, on one of its headings (as
 * GitHub anchors them). So does every link the nodes and the credential show
 * in n8n's editor (codex "resources" and documentationUrl), which point at
 * the repository on GitHub.
 */
const root = join(__dirname, '..', '..');
const REPO_URL = 'https://github.com/n8n-nodes-payonus/n8n-nodes-payonus';

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to "-"; repeats get -1, -2... */
function slug(heading: string): string {
	return heading
		.trim()
		.replace(/`/g, '')
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
function prose(markdown: string): Array<{ line: string; n: number }> {
	const out: Array<{ line: string; n: number }> = [];
	let fence = false;
	markdown.split('\n').forEach((line, i) => {
		if (/^\s*```/.test(line)) {
			fence = !fence;
			return;
		}
		if (!fence) out.push({ line, n: i + 1 });
	});
	return out;
}

function anchorsOf(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const out = new Set<string>();
	for (const { line } of prose(markdown)) {
		const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (!m) continue;
		const base = slug(m[1]);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		out.add(count === 0 ? base : `${base}-${count}`);
	}
	return out;
}

/** Markdown links and images `[text](target)` outside code, with their line. */
function linksOf(markdown: string): Array<{ target: string; n: number }> {
	const out: Array<{ target: string; n: number }> = [];
	for (const { line, n } of prose(markdown)) {
		const text = line.replace(/`[^`]*`/g, '');
		for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ target: m[1], n });
	}
	return out;
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOfFile(file: string): Set<string> {
	let a = anchorCache.get(file);
	if (!a) {
		a = anchorsOf(readFileSync(file, 'utf8'));
		anchorCache.set(file, a);
	}
	return a;
}

/** What is wrong with a link from `fromFile` (absolute) to `target`, or undefined when it lands. */
function brokenLink(fromFile: string, target: string): string | undefined {
	if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // http(s), mailto: not checked here
	const [path, anchor] = target.split('#', 2) as [string, string | undefined];
	const file = path === '' ? fromFile : join(dirname(fromFile), decodeURIComponent(path));
	if (!existsSync(file)) return `no file ${relative(root, file)}`;
	if (anchor === undefined || anchor === '') return undefined;
	if (statSync(file).isDirectory() || !file.endsWith('.md')) return `#${anchor} on a file that is not Markdown`;
	return anchorsOfFile(file).has(anchor) ? undefined : `no heading #${anchor} in ${relative(root, file)}`;
}

/** The Markdown pages checked: the README, CONTRIBUTING.md, docs/ (and below), the examples' and the sandbox's README. */
function pages(): string[] {
	const out = ['README.md', 'CONTRIBUTING.md', 'examples/README.md', 'sandbox/README.md'].filter((p) => existsSync(join(root, p)));
	return [...out, ...repositoryPaths({ under: 'docs' }).filter((p) => p.endsWith('.md'))];
}

/** A documentation URL of the repository on GitHub, as a local path + anchor. */
function localTarget(url: string): string | undefined {
	if (!url.startsWith(REPO_URL)) return undefined;
	const rest = url.slice(REPO_URL.length);
	if (rest.startsWith('#')) return `README.md${rest}`;
	const m = /^\/blob\/main\/(.+)$/.exec(rest);
	return m ? m[1] : undefined;
}

function editorLinks(): Array<{ where: string; url: string }> {
	const out: Array<{ where: string; url: string }> = [];
	const files = ['nodes', 'credentials'].flatMap((under) =>
		repositoryPaths({ under }).filter((p) => p.endsWith('.node.json') || p.endsWith('.ts')),
	);
	for (const f of files) {
		const text = readFileSync(join(root, f), 'utf8');
		for (const m of text.matchAll(/https:\/\/github\.com\/n8n-nodes-payonus\/n8n-nodes-payonus[^\s'"`)]*/g)) out.push({ where: f, url: m[0] });
	}
	return out;
}

/** Source files whose comments may name a documentation page (this test excepted). */
function sources(): string[] {
	return ['nodes', 'credentials', 'sandbox', 'scripts', 'bench', 'test', 'dev']
		.flatMap((under) => sourceFiles({ under }))
		.filter((p) => !/docsLinks/.test(p));
}

/** What the comments of the code name: `docs/<page>.md#anchor` paths, and README sections by their title (`README, "Title"`). */
function namedInCode(): Array<{ where: string; target: string }> {
	const out: Array<{ where: string; target: string }> = [];
	for (const f of sources()) {
		const text = readFileSync(join(root, f), 'utf8');
		text.split('\n').forEach((line, i) => {
			for (const m of line.matchAll(/(?<![\w/.-])(docs\/[\w./-]*\w\.md)(#[\w-]+)?/g)) out.push({ where: `${f}:${i + 1}`, target: m[1] + (m[2] ?? '') });
			for (const m of line.matchAll(/README,? "([^"]+)"/g)) out.push({ where: `${f}:${i + 1}`, target: `README.md#${slug(m[1])}` });
		});
	}
	return out;
}

describe('documentation links', () => {
	it('the checker itself: anchors and broken links are told apart', () => {
		const a = anchorsOf('# Title\n## Simplify (node version 3)\n```\n# not a heading\n```\n## Title\n### `code` and [link](x.md)');
		expect([...a]).toEqual(['title', 'simplify-node-version-3', 'title-1', 'code-and-link']);
		expect(linksOf('see [a](b.md#c) and `[x](y.md)`\n```\n[d](e.md)\n```\n![img](images/p.png "t")')).toEqual([
			{ target: 'b.md#c', n: 1 },
			{ target: 'images/p.png', n: 5 },
		]);
		const readme = join(root, 'README.md');
		expect(brokenLink(readme, 'docs/no-such-page.md')).toMatch(/no file/);
		expect(brokenLink(readme, '#no-such-heading')).toMatch(/no heading/);
		expect(brokenLink(readme, 'https://n8n.io')).toBeUndefined();
	});

	const all = pages();
	it('covers the README, CONTRIBUTING.md and the docs pages', () => {
		expect(all).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/reliability.md', 'docs/triggers.md']));
	});

	it.each(all)('%s: every relative link and #anchor lands', (page) => {
		const file = join(root, page);
		const broken = linksOf(readFileSync(file, 'utf8'))
			.map(({ target, n }) => ({ n, target, why: brokenLink(file, target) }))
			.filter((l) => l.why)
			.map((l) => `${page}:${l.n} ${l.target}: ${l.why}`);
		expect(broken).toEqual([]);
	});

	it.each(all)('%s: every repository path it names in `code` exists', (page) => {
		const text = readFileSync(join(root, page), 'utf8');
		const missing: string[] = [];
		for (const m of text.matchAll(/`((?:nodes|credentials|sandbox|scripts|test|bench|docs|examples|\.ci|\.github)\/[\w./<>*-]*)`/g)) {
			const path = m[1];
			if (/[<>*]/.test(path)) continue; // a pattern, not a path
			if (!existsSync(join(root, path))) missing.push(path);
		}
		expect(missing).toEqual([]);
	});

	it('the pages and README sections named in the code exist', () => {
		const named = namedInCode();
		expect(named.length).toBeGreaterThan(5);
		const broken = named
			.map(({ where, target }) => {
				const why = brokenLink(join(root, 'x'), target);
				return why ? `${where}: ${target}: ${why}` : undefined;
			})
			.filter(Boolean);
		expect(broken).toEqual([]);
	});

	it("the editor's documentation links (codex files, credential) land on a heading", () => {
		const links = editorLinks();
		expect(links.length).toBeGreaterThanOrEqual(9);
		const broken = links
			.map(({ where, url }) => {
				const local = localTarget(url);
				if (!local) return `${where}: ${url}: not a page of the repository`;
				if (url.endsWith('#readme')) return undefined;
				if (!local.includes('#')) return `${where}: ${url}: no anchor`;
				const why = brokenLink(join(root, 'x'), local);
				return why ? `${where}: ${url}: ${why}` : undefined;
			})
			.filter(Boolean);
		expect(broken).toEqual([]);
	});
});
