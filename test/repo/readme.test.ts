import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The README is read in five minutes (issue 25): at most 300 lines, the
 * sections a user needs, and a link to every page the rest moved to.
 */
const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const headings = readme
	.split('\n')
	.filter((l) => /^#{1,6} /.test(l))
	.map((l) => l.replace(/^#+ /, '').trim());

describe('README', () => {
	it('is at most 300 lines', () => {
		expect(readme.split('\n').length).toBeLessThanOrEqual(300);
	});

	it('has the sections a user reads first', () => {
		for (const h of ['Install', 'Credentials', 'Operations', 'Triggers', 'Payment page', 'Example workflows', 'Limits and guarantees', 'Performance']) {
			expect(headings).toContain(h);
		}
	});

	it('gives the two commands of a working copy', () => {
		expect(readme).toContain('npm install && npm start');
		expect(readme).toContain('npm install && npm test');
	});

	it('links every docs page, the spec and CONTRIBUTING.md', () => {
		const pages = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md'));
		expect(pages.length).toBeGreaterThan(5);
		for (const p of pages) expect(readme).toContain(`](docs/${p}`);
		expect(readme).toContain('](docs/spec/');
		expect(readme).toContain('](CONTRIBUTING.md');
	});

	it("CONTRIBUTING's Layout, step by step, names the file where a PAYOUT notification's status is checked, and the checkout's and the payout's", () => {
		// The layout is for people working on the package: it moved from the README to CONTRIBUTING.md.
		const contributing = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
		const start = contributing.indexOf('### Layout, step by step');
		expect(start).toBeGreaterThanOrEqual(0);
		const layout = contributing.slice(start, contributing.indexOf('\n## ', start));
		expect(layout).toMatch(/PAYOUT.*`nodes\/PayOnUsTrigger\/confirm\.ts`/);
		expect(layout).toContain('`nodes/PayOnUsPaymentPage/checkout/index.ts`');
		expect(layout).toContain('`nodes/shared/moneyMoving/send.ts`');
	});
});
