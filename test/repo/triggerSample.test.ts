/**
 * Issue 38, point 2: a builder starting a consumer from scratch finds in
 * docs/nodes/payonus-trigger.md a sample PayOnUs item to pin (valid JSON, an
 * n8n item list), the status field (`paymentStatus`), which amount a share
 * is computed from and why, and the nodes named as n8n's node search finds
 * them (checked in both n8n versions by scripts/builder-walkthrough.ts:
 * "When Executed by Another Workflow" itself finds nothing).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'nodes', 'payonus-trigger.md'), 'utf8');
const section = doc.slice(doc.indexOf('## Building a workflow on a payment (from scratch)'), doc.indexOf('## Statuses'));

describe('docs/nodes/payonus-trigger.md: building a workflow on a payment from scratch', () => {
	it('has the section, before Statuses', () => {
		expect(section.length).toBeGreaterThan(500);
	});

	it('a sample item to paste: a list of one COLLECTION, SUCCESSFUL, with the five amounts', () => {
		const block = /### A sample item to pin[\s\S]*?```json\n([\s\S]*?)```/.exec(section)?.[1];
		expect(block).toBeDefined();
		const items = JSON.parse(block!) as Array<Record<string, unknown>>;
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ event: 'COLLECTION', paymentStatus: 'SUCCESSFUL', currency: 'NGN', confirmed: true });
		for (const field of ['amount', 'transactionAmount', 'amountPaid', 'settlementAmount', 'totalChargedFee']) expect(typeof items[0][field]).toBe('number');
		expect(items[0].settlementAmount).toBe(Number(items[0].amount) - Number(items[0].totalChargedFee));
		expect(items[0].status).toBeUndefined();
	});

	it('says the status is paymentStatus and which amount to compute a share from, and why', () => {
		expect(section).toContain('**The status is `paymentStatus`**');
		expect(section).toMatch(/compute a share of a sale from it/);
		expect(section).toMatch(/use `settlementAmount`\s+instead: the amount less PayOnUs' fees/);
		expect(section).toMatch(/`transactionAmount` is the\s+notification's own word/);
		expect(section).toMatch(/`amountPaid` is what the customer transferred/);
	});

	it('names the nodes as the node search finds them', () => {
		expect(section).toContain('`Execute Workflow Trigger` or `Sub-workflow` (the name itself finds nothing)');
		expect(section).toContain('open **Execute Sub-workflow**, pick *When executed by Another Workflow*');
	});

	it('says PENDING is not final and where the final status comes from', () => {
		expect(section).toMatch(/A transfer is answered `PENDING`: that is not its outcome/);
		expect(section).toMatch(/\*\*PAYOUT\*\* notification/);
		expect(section).toMatch(/\*\*Get Transfer\*\* with its `onusReference`/);
	});
});
