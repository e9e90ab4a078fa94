/**
 * The unit suite runs twice (jest.config.js): project `unit` with zod 3.25, the
 * zod n8n 2.8 and 2.41 ship, and project `unit-zod4` with zod 4 mapped in. Each
 * project states the zod major it means (globals.ZOD_MAJOR); this checks the
 * nodes' zod really is that one, so the zod 4 run cannot quietly test zod 3.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

declare const ZOD_MAJOR: number;

/** The version of the zod package that serves `specifier` here. */
function zodVersion(specifier: string): string {
	let dir = path.dirname(require.resolve(specifier));
	for (;;) {
		const file = path.join(dir, 'package.json');
		const pkg = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
		if (pkg.name === 'zod') return pkg.version;
		dir = path.dirname(dir);
	}
}

describe('the zod the unit tests run against', () => {
	it("is the project's zod major, 3.25+ for zod 3 (the first with the zod/v3 entry)", () => {
		const [major, minor] = zodVersion('zod/v3').split('.').map(Number);
		expect(major).toBe(ZOD_MAJOR);
		if (major === 3) expect(minor).toBeGreaterThanOrEqual(25);
	});

	it('gives the nodes the zod 3 API through zod/v3 under either major', () => {
		const { z } = require('zod/v3') as typeof import('zod/v3');
		const r = z.string({ required_error: 'is required' }).safeParse(undefined);
		expect(r.success).toBe(false);
		expect(!r.success && r.error.issues[0].message).toBe('is required');
	});
});
