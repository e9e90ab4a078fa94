import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The documentation link of each starting node (its codex file) lands on a
 * heading of the README, as GitHub anchors it (lower case, spaces to "-",
 * punctuation dropped).
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

describe('documentation links of the triggers and the payment page', () => {
	const readme = anchors(readFileSync(join(root, 'README.md'), 'utf8'));
	it.each(['PayOnUsTrigger', 'PayOnUsPollTrigger', 'PayOnUsPaymentPage'])('%s links to a README heading', (node) => {
		const codex = JSON.parse(readFileSync(join(root, 'nodes', node, `${node}.node.json`), 'utf8'));
		const urls: string[] = codex.resources.primaryDocumentation.map((d: { url: string }) => d.url);
		expect(urls.length).toBeGreaterThan(0);
		for (const url of urls) {
			const anchor = url.split('#')[1];
			expect(readme.has(anchor)).toBe(true);
		}
	});
	it('the README has the sections the editor and the report point at', () => {
		for (const a of ['triggers', 'payonus-trigger', 'test-event', 'simplified-output', 'payonus-poll-trigger', 'payment-page']) {
			expect(readme.has(a)).toBe(true);
		}
	});
});
