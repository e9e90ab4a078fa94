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

	it("the editor's links (codex files, credential, notices) are pages of the repository that exist", () => {
		const links = editorLinks();
		expect(links.length).toBeGreaterThanOrEqual(10);
		const broken = links
			.map(({ where, url }) => {
				const local = localTarget(url);
				if (!local) return `${where}: ${url}: not a page of the repository`;
				const why = brokenLink(join(root, 'x'), local);
				return why ? `${where}: ${url}: ${why}` : undefined;
			})
			.filter(Boolean);
		expect(broken).toEqual([]);
	});
});

/**
 * The Docs links as n8n builds them (issue 31): n8n appends its tracking
 * query to a node's documentation URL as text (editor-ui NodeSettings,
 * useNodeDocsUrl, 2.8.4 and 2.41.1: `${primaryDocumentation[0].url}?utm_source=n8n_app&...`),
 * so an anchor in the URL swallows the query and the page opens at the top.
 * A credential's documentationUrl not on docs.n8n.io is opened as is
 * (CredentialConfig), and a notice's link as written. Each link, followed
 * the way a browser reads it, must open an existing page of the repository
 * at a real heading (or at its top); each node has a page of its own.
 */
describe("the editor's documentation links, as n8n builds them", () => {
	const NODES = ['PayOnUs', 'PayOnUsTrigger', 'PayOnUsPollTrigger', 'PayOnUsPaymentPage'];

	/** n8n's node Docs link (NodeSettings): the first primaryDocumentation URL + "?" + its tracking query. */
	function nodeDocsUrl(nodeName: string, codex: { resources?: { primaryDocumentation?: Array<{ url: string }> } }): string {
		const utm = new URLSearchParams({ utm_source: 'n8n_app', utm_medium: 'node_settings_modal-credential_link', utm_campaign: nodeName });
		return `${codex.resources?.primaryDocumentation?.[0]?.url}?${utm.toString()}`;
	}

	/** n8n's credential documentation link (CredentialConfig): a URL not on docs.n8n.io, unchanged. */
	function credentialDocsUrl(documentationUrl: string): string {
		return new URL(documentationUrl).hostname === 'docs.n8n.io' ? `${documentationUrl}?utm_source=n8n_app` : documentationUrl;
	}

	/** Where a browser lands: the repository file and the heading (undefined: the top), or why it lands nowhere. */
	function landing(url: string): { file: string; heading?: string } | { wrong: string } {
		const parsed = new URL(url);
		const prefix = '/n8n-nodes-payonus/n8n-nodes-payonus/blob/main/';
		if (parsed.hostname !== 'github.com' || !parsed.pathname.startsWith(prefix)) return { wrong: `${url}: not a page of the repository (${parsed.pathname})` };
		const file = decodeURIComponent(parsed.pathname.slice(prefix.length));
		if (!existsSync(join(root, file)) || !file.endsWith('.md')) return { wrong: `${url}: no page ${file}` };
		const heading = parsed.hash.replace(/^#/, '');
		if (heading === '') return { file };
		return anchorsOfFile(join(root, file)).has(heading) ? { file, heading } : { wrong: `${url}: no heading #${heading} in ${file}` };
	}

	const title = (file: string): string => /^# (.*)$/m.exec(readFileSync(join(root, file), 'utf8'))?.[1] ?? '';

	it('the checker itself: a link with an anchor, tracking query appended, lands on no heading', () => {
		const url = nodeDocsUrl('x', { resources: { primaryDocumentation: [{ url: `${REPO_URL}/blob/main/docs/triggers.md#simplified-output` }] } });
		expect(landing(url)).toEqual({ wrong: expect.stringMatching(/no heading #simplified-output\?utm_source=n8n_app/) });
		expect(landing(`${REPO_URL}/blob/main/docs/triggers.md#simplified-output`)).toEqual({ file: 'docs/triggers.md', heading: 'simplified-output' });
		expect(landing(`${REPO_URL}#credentials`)).toEqual({ wrong: expect.stringMatching(/not a page/) });
	});

	it.each(NODES)("%s: its Docs link opens its own page at the top (no anchor), titled after the node", (node) => {
		const codex = JSON.parse(readFileSync(join(root, 'nodes', node, `${node}.node.json`), 'utf8'));
		const url = nodeDocsUrl(`n8n-nodes-payonus.${node}`, codex);
		const where = landing(url);
		expect(where).toEqual({ file: expect.stringMatching(/^docs\/.*\.md$/) });
		const file = (where as { file: string }).file;
		const key = node === 'PayOnUs' ? 'payonus' : node.replace(/^PayOnUs/, '').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
		expect(title(file).toLowerCase()).toContain(key);
	});

	it('each node has a page of its own', () => {
		const pages = NODES.map((node) => JSON.parse(readFileSync(join(root, 'nodes', node, `${node}.node.json`), 'utf8')).resources.primaryDocumentation[0].url);
		expect(new Set(pages).size).toBe(NODES.length);
	});

	it("the credential's links (its documentationUrl, each codex's credentialDocumentation) open the credential's page", () => {
		const credential = readFileSync(join(root, 'credentials', 'PayOnUsApi.credentials.ts'), 'utf8');
		const documentationUrl = /documentationUrl = '([^']+)'/.exec(credential)?.[1] ?? '';
		const urls = [credentialDocsUrl(documentationUrl)];
		for (const node of NODES) {
			const codex = JSON.parse(readFileSync(join(root, 'nodes', node, `${node}.node.json`), 'utf8'));
			urls.push(...codex.resources.credentialDocumentation.map((d: { url: string }) => d.url));
		}
		for (const url of urls) expect(landing(url)).toEqual({ file: 'docs/nodes/credential.md' });
		expect(title('docs/nodes/credential.md')).toMatch(/PayOnUs API credential/);
	});

	it('every other link the panels show (notices, descriptions) lands on a real page and heading', () => {
		const inPanels = editorLinks().filter(({ where }) => where.endsWith('.ts') && !where.startsWith('credentials/'));
		expect(inPanels.map((l) => l.url)).toContain(`${REPO_URL}/blob/main/docs/going-live.md`);
		const wrong = inPanels.map(({ url }) => landing(url)).filter((l): l is { wrong: string } => 'wrong' in l);
		expect(wrong).toEqual([]);
	});
});
