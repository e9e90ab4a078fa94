/**
 * Rules 1 and 2 of docs/reliability.md under every answer shape the spec
 * allows or leaves open (sandbox/profiles.ts ANSWER_SHAPE_TEST_PROFILES,
 * sandbox/answerShapes.ts): every money-moving operation x shape x fault
 * (none, answers dropped after processing, 503 before processing every
 * second call, a reference held by an earlier different movement), through
 * the real transport against the sandbox; outputs checked against the
 * ledger. Goals: no false success, no movement made twice, nothing new for
 * a reused reference, every "outcome unknown" naming its reference, no
 * advice to use a new reference. (`npm run bench -- answer-shapes` is the
 * same drill with more movements per cell.)
 */
import { startSandbox, type SandboxHandle } from '../../../sandbox/server';
import { ANSWER_SHAPE_TEST_PROFILES } from '../../../sandbox/profiles';
import { MONEY_OPS, runCell, SHAPE_FAULTS } from '../../../dev/moneyDrill';
import { SandboxClient } from '../../../sandbox/client';

jest.setTimeout(120_000);

const COUNT = 3;
let sb: SandboxHandle;
beforeAll(async () => {
	sb = await startSandbox({ port: 0, config: { tokenCallsPerMinute: 1_000_000, transferDelayMs: 2, momoAutoDelayMs: 2, requestLogLimit: 100 } });
});
afterAll(async () => {
	await sb.stop();
});

describe.each(ANSWER_SHAPE_TEST_PROFILES.map((p) => p.name))('answer shape %s', (name) => {
	beforeAll(async () => {
		await new SandboxClient(sb.url).setProfiles(ANSWER_SHAPE_TEST_PROFILES.find((p) => p.name === name)!.profiles);
	});

	describe.each(MONEY_OPS.map((op) => op.name))('%s', (opName) => {
		const op = MONEY_OPS.find((o) => o.name === opName)!;
		test.each(SHAPE_FAULTS)('%s', async (fault) => {
			const cell = await runCell(sb.url, op, name, fault, COUNT, `s-${name}-${op.name.replace(/\W/g, '')}-${fault}-${Date.now().toString(36)}`);
			const bad = cell.falseSuccesses + cell.doubleMovements + cell.unknownWithoutReference + cell.newReferenceAdvice;
			expect({
				falseSuccesses: cell.falseSuccesses,
				doubles: cell.doubleMovements,
				unnamed: cell.unknownWithoutReference,
				advice: cell.newReferenceAdvice,
				details: bad ? cell.details : [],
			}).toEqual({ falseSuccesses: 0, doubles: 0, unnamed: 0, advice: 0, details: [] });
			if (fault === 'reused-reference') {
				expect(cell.extraMovements).toBe(0);
				expect(cell.successes).toBe(0);
				return;
			}
			// Every movement that happened is exact; every item is its one movement, an error with nothing moved, or unknown.
			expect(cell.exact).toBe(cell.movements);
			expect(cell.successes + cell.errors + cell.unknown).toBe(cell.intended);
			expect(cell.successes).toBeLessThanOrEqual(cell.movements);
			if (fault === 'none' || fault === 'drop-after-20') {
				// Whatever the shape, a movement that happened is found: a success.
				expect({ ok: cell.successes, details: cell.successes === cell.intended ? [] : cell.details }).toEqual({ ok: cell.intended, details: [] });
			}
		});
	});
});
