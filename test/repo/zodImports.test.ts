/**
 * The shipped code takes zod from the `zod/v3` entry, which the zod 3.25 of
 * today's n8n and the zod 4 of a newer one both provide (CONTRIBUTING, "zod").
 * A bare 'zod' or 'zod/v4' import would give zod 4's API and messages in an
 * n8n that ships zod 4; this names the file and line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, sourceFiles } from './repoFiles';

describe("nodes/ and credentials/ import zod only as 'zod/v3'", () => {
	it('has no other zod specifier', () => {
		const other: string[] = [];
		for (const file of [...sourceFiles({ under: 'nodes' }), ...sourceFiles({ under: 'credentials' })]) {
			readFileSync(join(ROOT, file), 'utf8')
				.split('\n')
				.forEach((line, i) => {
					for (const m of line.matchAll(/(?:\bfrom\s*|\b(?:import|require)\s*\(\s*)['"](zod(?:\/[^'"]*)?)['"]/g)) {
						if (m[1] !== 'zod/v3') other.push(`${file}:${i + 1}: '${m[1]}'`);
					}
				});
		}
		expect(other).toEqual([]);
	});
});
