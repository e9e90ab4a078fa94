import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The README keeps the sections about the starting nodes that other pages
 * and reports point at (anchors as GitHub makes them: lower case, spaces to
 * "-", punctuation dropped). The nodes' own Docs links open a page of their
 * own (docsLinks.test.ts, as n8n builds them).
 */
const root = join(__dirname, '..', '..');

function anchors(markdown: string): Set<string> {
	const out = new Set<string>();
	for (const line of markdown.split('\n')) {
		const m = /^#{1,6}\s+(.*)$/.exec(line);
		if (!m) continue;
		out.add(
			m[1]
				.trim()
				.toLowerCase()
				.replace(/[^\p{L}\p{N}\s_-]/gu, '')
				.replace(/\s/g, '-'),
		);
	}
	return out;
}

describe('README sections about the starting nodes', () => {
	const readme = anchors(readFileSync(join(root, 'README.md'), 'utf8'));
	it('the README has the sections the editor and the report point at', () => {
		for (const a of ['triggers', 'payonus-trigger', 'test-event', 'simplified-output', 'payonus-poll-trigger', 'payment-page']) {
			expect(readme.has(a)).toBe(true);
		}
	});
});
