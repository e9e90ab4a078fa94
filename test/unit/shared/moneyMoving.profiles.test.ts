/**
 * Issue 14 end to end without n8n: every money-moving operation x every
 * sandbox profile x every fault (drop after processing 20 % / 50 %, 503
 * before processing, a reference reused with other details), through the
 * real transport against the sandbox; outputs checked against the ledger.
 * Goals: exactly one movement per intended movement, no false success,
 * unknown outcomes only where nothing can prove absence (bulk), each naming
 * its reference, and no message advising a new reference.
 */
import { startSandbox, type SandboxHandle } from '../../../sandbox/server';
import { TEST_PROFILES } from '../../../sandbox/profiles';
import { FAULTS, MONEY_OPS, runCell } from '../../../dev/moneyDrill';
import { SandboxClient } from '../../../sandbox/client';

jest.setTimeout(120_000);

const COUNT = 4;
let sb: SandboxHandle;
beforeAll(async () => {
	sb = await startSandbox({ port: 0, config: { tokenCallsPerMinute: 1_000_000, transferDelayMs: 2, momoAutoDelayMs: 2, requestLogLimit: 100 } });
});
afterAll(async () => {
	await sb.stop();
});

describe.each(TEST_PROFILES.map((p) => p.name))('profile %s', (name) => {
	const profiles = TEST_PROFILES.find((p) => p.name === name)!.profiles;
	beforeAll(async () => {
		await new SandboxClient(sb.url).setProfiles(profiles);
	});

	// Titles only: jest formats every argument of .each (an operation with its zod schema is huge).
	describe.each(MONEY_OPS.map((op) => op.name))('%s', (opName) => {
		const op = MONEY_OPS.find((o) => o.name === opName)!;
		test.each(FAULTS)('%s', async (fault) => {
			const cell = await runCell(sb.url, op, name, fault, COUNT, `t-${name}-${op.name.replace(/\W/g, '')}-${fault}-${Date.now().toString(36)}`);
			const summary = JSON.stringify(cell);
			expect({ falseSuccesses: cell.falseSuccesses, advice: cell.newReferenceAdvice, unnamed: cell.unknownWithoutReference, summary: cell.falseSuccesses + cell.newReferenceAdvice + cell.unknownWithoutReference ? summary : '' }).toEqual({
				falseSuccesses: 0,
				advice: 0,
				unnamed: 0,
				summary: '',
			});
			if (fault === 'reused-reference') {
				// Nothing new may move; every item is an error naming the earlier movement.
				expect(cell.extraMovements).toBe(0);
				expect(cell.successes).toBe(0);
				return;
			}
			// Never more than one movement per intended movement.
			expect(cell.movements).toBeLessThanOrEqual(cell.intended);
			// Every movement that happened is exact, and every item either succeeded, or failed with nothing moved, or is an unknown outcome.
			expect(cell.exact).toBe(cell.movements);
			if (op.name !== 'bulk transfer') {
				// Single movements: the lookup reads the whole list, so a lost answer is always resolved.
				expect({ unknown: cell.unknown, summary: cell.unknown ? summary : '' }).toEqual({ unknown: 0, summary: '' });
				// Each item: a success that is its one movement, or an error with nothing moved (4 sends all refused).
				expect(cell.movements).toBe(cell.successes);
				expect(cell.successes + cell.errors).toBe(cell.intended);
			}
		});
	});
});
