/**
 * The n8n installer's decisions that need no network: which versions, which
 * Node, what counts as usable, and the one-line messages for failures a user
 * can act on.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as installer from '../../../../dev/n8n/install';
import * as nodeRuntime from '../../../../dev/n8n/install/node';

/** What node-gyp printed here when it had no nodedir and could only reach the npm registry (issue 26). */
const GYP_HEADERS_DOWNLOAD = [
	'npm error code 1',
	'npm error path /tmp/x/node_modules/sqlite3',
	'npm error command failed',
	'npm error command sh -c prebuild-install -r napi || node-gyp rebuild',
	'npm error gyp ERR! configure error ',
	'npm error gyp ERR! stack Error: This is most likely not a problem with node-gyp or the package itself and',
	'npm error gyp ERR! stack is related to network connectivity. In most cases you are behind a proxy or have bad ',
	'npm error gyp ERR! stack network settings.',
	'npm error gyp ERR! stack     at go (/tmp/x/node_modules/node-gyp/lib/install.js:173:17)',
	'npm error gyp ERR! System Linux 6.18.44',
	'npm error gyp ERR! command "/usr/bin/node" "/tmp/x/node_modules/.bin/node-gyp" "rebuild"',
	'npm error gyp ERR! node -v v20.20.2',
	'npm error gyp ERR! not ok',
].join('\n');

/** A folder laid out like a Node install: include/node/node_version.h of `version`. */
function headersAt(dir: string, version: string): void {
	const [major, minor, patch] = version.split('.');
	mkdirSync(join(dir, 'include', 'node'), { recursive: true });
	writeFileSync(
		join(dir, 'include', 'node', 'node_version.h'),
		`#define NODE_MAJOR_VERSION ${major}\n#define NODE_MINOR_VERSION ${minor}\n#define NODE_PATCH_VERSION ${patch}\n`,
	);
}

/** A stand-in `node` under dir/bin that answers `-p process.versions.node` with `version`. */
function fakeNode(dir: string, version: string): string {
	mkdirSync(join(dir, 'bin'), { recursive: true });
	const bin = join(dir, 'bin', 'node');
	writeFileSync(bin, `#!/bin/sh\necho ${version}\n`);
	chmodSync(bin, 0o755);
	return bin;
}

describe('the n8n installer (dev/n8n/install/)', () => {
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

	it('takes the steps two side-by-side installs share one at a time, in order, even after one fails', async () => {
		const events: string[] = [];
		let releaseFirst!: () => void;
		const first = installer.oneAtATime(async () => {
			events.push('first starts');
			await new Promise<void>((resolve) => (releaseFirst = resolve));
			events.push('first ends');
			throw new Error('first failed');
		});
		const second = installer.oneAtATime(async () => {
			events.push('second starts');
			return 'second';
		});
		await new Promise((resolve) => setImmediate(resolve));
		expect(events).toEqual(['first starts']); // the second waits while the first runs
		releaseFirst();
		await expect(first).rejects.toThrow('first failed');
		await expect(second).resolves.toBe('second');
		expect(events).toEqual(['first starts', 'first ends', 'second starts']);
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

	it('names a failed native build for what it is, with its first real error line and the fix (never "registry cannot be reached")', () => {
		const headers = installer.npmFailure('n8n 2.8.4: building sqlite3 from source', 1, GYP_HEADERS_DOWNLOAD);
		expect(headers).toBeInstanceOf(installer.UserError);
		expect(headers.message).not.toMatch(/registry .* cannot be reached/);
		expect(headers.message).toMatch(/^n8n 2\.8\.4: building sqlite3 from source failed: the native build \(node-gyp\) stopped at: Error: This is most likely .* network settings\. To fix: node-gyp tried to download Node's headers/);
		expect(headers.message.split('\n')).toHaveLength(1);
		const compiler = installer.npmFailure('x', 1, 'npm error ../src/database.cc:1:10: fatal error: napi.h: No such file or directory\nnpm error gyp ERR! build error\nnpm error gyp ERR! stack Error: `make` failed with exit code: 2');
		expect(compiler.message).toMatch(/stopped at: \.\.\/src\/database\.cc:1:10: fatal error: napi\.h: No such file or directory\. To fix: .*python3, make and a C\+\+ compiler/);
		const python = installer.npmFailure('x', 1, 'npm error gyp ERR! find Python Python is not set from command line or npm configuration\nnpm error gyp ERR! configure error');
		expect(python.message).toMatch(/stopped at: find Python .* To fix: install Python 3/);
		const make = installer.npmFailure('x', 1, 'npm error gyp ERR! stack Error: not found: make\nnpm error gyp ERR! stack     at x');
		expect(make.message).toMatch(/stopped at: Error: not found: make\. To fix: install make and a C\+\+ compiler/);
		// a real registry failure keeps its own message
		expect(installer.npmFailure('x', 1, 'npm error code ENOTFOUND\nnpm error network request to https://registry.npmjs.org/n8n failed').message).toMatch(/cannot be reached/);
	});

	it("gives node-gyp the headers of the very Node that runs n8n: its own install's, else the registry package already fetched", async () => {
		// this Node's own headers when its install has them (a Node from the registry package ships include/node)
		const own = join(cache, 'own');
		headersAt(own, '24.11.1');
		expect(await nodeRuntime.ensureNodeHeaders(fakeNode(own, '24.11.1'), cache)).toBe(own);
		// headers of another version do not count: the registry package of exactly this version is used
		const stale = join(cache, 'stale');
		headersAt(stale, '20.19.0');
		const fetched = join(cache, 'node-headers-20.20.2', 'node_modules', `node-${process.platform}-${process.arch}`);
		headersAt(fetched, '20.20.2');
		expect(await nodeRuntime.ensureNodeHeaders(fakeNode(stale, '20.20.2'), cache)).toBe(fetched);
		expect(nodeRuntime.headersVersion(join(cache, 'nowhere'))).toBe('');
		// a Node that does not run is named, not guessed at
		const broken = join(cache, 'broken');
		mkdirSync(join(broken, 'bin'), { recursive: true });
		writeFileSync(join(broken, 'bin', 'node'), '#!/bin/sh\nexit 3\n');
		chmodSync(join(broken, 'bin', 'node'), 0o755);
		await expect(nodeRuntime.ensureNodeHeaders(join(broken, 'bin', 'node'), cache)).rejects.toThrow(/does not run/);
	});
});
