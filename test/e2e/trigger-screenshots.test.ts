/**
 * The editor pictures of the starting nodes (scripts/trigger-screenshots.ts)
 * in this suite's n8n: the canvas shows the PayOnUs Trigger's outputs as a
 * pair and its events in words, each panel opens, and "Listen for test
 * event" / "Fetch test event" show a simplified payment in the panel.
 * Pictures go to a temporary folder (npm run screenshots:triggers writes
 * docs/images).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { takeTriggerScreenshots } from '../../scripts/trigger-screenshots';
import { useTriggerSandbox } from './triggerFixtures';

jest.setTimeout(300_000);

const e2e = useTriggerSandbox('trigger-screenshots');
const out = mkdtempSync(join(tmpdir(), 'payonus-trigger-shots-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('pictures the canvas, each panel and both test events', async () => {
	await e2e.sb.collection(`shots-${Date.now()}`, 4200);
	const shots = await takeTriggerScreenshots(e2e.n8n, { id: e2e.credentialId, name: 'PayOnUs' }, out);
	const byName = Object.fromEntries(shots.map((s) => [s.file.replace(/^.*trigger-|\.png$/g, ''), s]));
	expect(Object.keys(byName).sort()).toEqual(
		['canvas', 'payment-page-panel', 'poll-panel', 'poll-test-event', 'webhook-panel', 'webhook-test-event'].sort(),
	);
	for (const s of shots) expect(statSync(s.file).size).toBeGreaterThan(10_000);
	expect(byName.canvas.text).toContain('Confirmed');
	expect(byName.canvas.text).toContain('Unconfirmed');
	expect(byName.canvas.text).not.toContain('card_tokenization_link');
	expect(byName['webhook-panel'].text).toContain('Test Event');
	expect(byName['webhook-panel'].text).toContain('Simplify');
	expect(byName['webhook-panel'].text).toMatch(/\bStatuses\b[\s\S]*Successful/);
	expect(byName['webhook-test-event'].text).toContain('paymentStatus');
	expect(byName['webhook-test-event'].text).toContain('4200');
	expect(byName['poll-test-event'].text).toContain('paymentStatus');
});
