/**
 * The editor pictures of the PayOnUs action node (scripts/action-screenshots.ts)
 * in this suite's n8n: every operation's panel opens and shows its resource
 * and operation, and the four errors run from the panel (Execute step) read
 * as intended: the same transfer twice is "Already paid" with the existing
 * transfer, an unknown payment is "No payment", several wrong fields are
 * listed at once by their labels, and a failed Dry Run warns above the output.
 * Runs on both n8n versions (2.41.1 and 2.8.4: same selectors, same texts).
 * Pictures go to a temporary folder, or PAYONUS_SHOTS_OUT (npm run
 * screenshots:actions writes docs/images).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { actionOperations, takeActionScreenshots } from '../../scripts/action-screenshots';
import { useSandboxAndN8n } from '../harness/sandboxAndN8n';

jest.setTimeout(600_000);

const CREDENTIAL = `PayOnUs action shots ${Date.now()}`;
const e2e = useSandboxAndN8n('action-screenshots', { credentialName: CREDENTIAL });
// PAYONUS_SHOTS_OUT keeps the pictures in that folder (to look at them).
const keep = process.env.PAYONUS_SHOTS_OUT;
const out = keep ?? mkdtempSync(join(tmpdir(), 'payonus-action-shots-'));
afterAll(() => {
	if (!keep) rmSync(out, { recursive: true, force: true });
});

it('pictures every operation panel and the four errors', async () => {
	const operations = actionOperations();
	expect(operations.length).toBeGreaterThanOrEqual(20);
	const shots = await takeActionScreenshots(e2e.n8n, { id: e2e.credentialId, name: CREDENTIAL }, out);
	const byName = Object.fromEntries(shots.map((s) => [s.file.replace(/^.*action-|\.png$/g, ''), s.text]));
	const errors = ['error-already-paid', 'error-unknown-payment', 'error-invalid-fields', 'error-dry-run-failed'];
	expect(Object.keys(byName).sort()).toEqual([...operations.map((op) => `${op.resource}-${op.operation}`), ...errors].sort());
	for (const s of shots) expect(statSync(s.file).size).toBeGreaterThan(10_000);

	for (const op of operations) {
		const text = byName[`${op.resource}-${op.operation}`];
		expect(text).toContain(op.resourceName);
		expect(text).toContain(op.name);
	}

	// (a) a transfer whose reference an earlier, different transfer used: that one named, nothing new.
	expect(byName['error-already-paid']).toMatch(/Reference "INV-1042-[a-z0-9]+" is already used by a different transfer: ONUS-\S+ \(SUCCESSFUL, NGN 1,500\.00\)/);
	expect(((await e2e.sb.ledger()).transfers as Array<{ merchantReference?: string }>).filter((t) => /^INV-1042-/.test(t.merchantReference ?? ''))).toHaveLength(1);
	// (b)
	expect(byName['error-unknown-payment']).toContain('No payment "ONUS-NUB-DOES-NOT-EXIST" in business BUS-2001');
	// (c) every wrong field at once, by its label.
	for (const label of [/Amount/, /Account Number/i, /Bank/]) expect(byName['error-invalid-fields']).toMatch(label);
	// (d)
	expect(byName['error-dry-run-failed']).toMatch(/Dry Run FAILED for 1 of 1 item \(nothing was sent\)\. First problem \[item 0\]: nameEnquiry/);
});
