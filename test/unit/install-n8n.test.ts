/**
 * The n8n installer's decisions that need no network: which versions, which
 * Node, what counts as usable, and the one-line messages for failures a user
 * can act on.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const installer = require('../../scripts/install-n8n.js') as {
	check: (version: string) => { ok: boolean; problem: string };
	resolveVersion: (name?: string) => string;
	testVersions: () => string[];
	npmFailure: (what: string, code: number, output: string) => Error;
	nodeFits: (engines: string, major: number) => boolean;
	UserError: new (message: string) => Error;
	VERSIONS: { current: string; minimum: string };
};

describe('scripts/install-n8n.js', () => {
	const saved = { ...process.env };
	let cache: string;
	beforeEach(() => {
		cache = mkdtempSync(join(tmpdir(), 'payonus-installer-'));
		process.env.PAYONUS_N8N_CACHE = cache;
		delete process.env.PAYONUS_N8N_VERSION;
		delete process.env.PAYONUS_N8N_VERSIONS;
	});
	afterEach(() => {
		process.env = { ...saved };
		rmSync(cache, { recursive: true, force: true });
	});

	it('names versions: current and minimum by default, a list or one version when asked', () => {
		expect(installer.testVersions()).toEqual([installer.VERSIONS.current, installer.VERSIONS.minimum]);
		process.env.PAYONUS_N8N_VERSIONS = 'current';
		expect(installer.testVersions()).toEqual([installer.VERSIONS.current]);
		process.env.PAYONUS_N8N_VERSIONS = 'minimum, 2.9.0';
		expect(installer.testVersions()).toEqual([installer.VERSIONS.minimum, '2.9.0']);
		expect(() => installer.resolveVersion('latest')).toThrow(/not current, minimum or x.y.z/);
	});

	it('runs n8n on the machine Node only where n8n accepts it', () => {
		expect(installer.nodeFits('>=20.19 <= 24.x', 20)).toBe(true);
		expect(installer.nodeFits('>=20.19 <= 24.x', 25)).toBe(false);
		expect(installer.nodeFits('>=24.0.0', 20)).toBe(false);
		expect(installer.nodeFits('>=24.0.0', 24)).toBe(true);
	});

	it('calls an install unusable when it is missing, interrupted or incomplete', () => {
		expect(installer.check('2.8.4')).toMatchObject({ ok: false, problem: 'n8n is not installed' });
		const dir = join(cache, 'n8n-2.8.4', 'node_modules');
		mkdirSync(join(dir, 'n8n', 'bin'), { recursive: true });
		writeFileSync(join(dir, 'n8n', 'bin', 'n8n'), '');
		writeFileSync(join(dir, 'n8n', 'package.json'), JSON.stringify({ dependencies: { 'n8n-core': '1', 'n8n-nodes-base': '1' } }));
		expect(installer.check('2.8.4').problem).toMatch(/interrupted/);
		writeFileSync(join(cache, 'n8n-2.8.4', 'payonus-install.json'), JSON.stringify({ version: '2.8.4', node: process.execPath }));
		mkdirSync(join(dir, 'n8n-core'), { recursive: true });
		writeFileSync(join(dir, 'n8n-core', 'package.json'), '{}');
		expect(installer.check('2.8.4').problem).toMatch(/incomplete \(n8n-nodes-base missing\)/);
		mkdirSync(join(dir, 'n8n-nodes-base'), { recursive: true });
		writeFileSync(join(dir, 'n8n-nodes-base', 'package.json'), '{}');
		expect(installer.check('2.8.4').problem).toMatch(/sqlite3/);
	});

	it('turns the failures a user can act on into one line', () => {
		const disk = installer.npmFailure('n8n 2.41.1: npm install', 1, 'npm error code ENOSPC\nnpm error nospc no space left on device');
		expect(disk).toBeInstanceOf(installer.UserError);
		expect(disk.message).toMatch(/disk is full/);
		const missing = installer.npmFailure('x', 1, 'npm error notarget No matching version found for @n8n/agents@0.26.2.');
		expect(missing.message).toMatch(/registry has no @n8n\/agents@0.26.2\. Pick another n8n version/);
		expect(missing.message.split('\n')).toHaveLength(1);
		const other = installer.npmFailure('x', 1, 'something else\nlast line');
		expect(other).not.toBeInstanceOf(installer.UserError);
		expect(other.message).toMatch(/exit 1[\s\S]*last line/);
	});
});
