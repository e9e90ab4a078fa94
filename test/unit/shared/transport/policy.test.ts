/**
 * The transport knows no sending policy (design notes: "the transport takes
 * the money policy as an argument instead of importing it"): a request that
 * moves money carries the policy that sends it (nodes/shared/moneyMoving/
 * call.ts moneyRequest, send.ts moneyMovingParts), and the transport runs it over its
 * single attempts (Attempts, nodes/shared/clientInterface.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(__dirname, '../../../../nodes/shared/transport');

describe('transport: the money-moving policy is handed to it, never imported', () => {
	it('no transport file imports the money-moving contract', () => {
		const importing = readdirSync(dir)
			.filter((f) => f.endsWith('.ts'))
			.filter((f) => /from ['"][./]*moneyMoving/.test(readFileSync(join(dir, f), 'utf8')));
		expect(importing).toEqual([]);
	});
});
