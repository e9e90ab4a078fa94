/**
 * Installed the way users install it (issue 13, item 6): the packed package is
 * published to a private npm registry (verdaccio, no uplinks: offline), and a
 * second n8n, started WITHOUT the harness's own install, installs it through
 * its own community-package installer (POST /rest/community-packages, which
 * runs `npm pack` + `npm install --ignore-scripts` against that registry);
 * then a workflow with the installed node lists wallets from a sandbox.
 *
 * n8n only uses a registry other than registry.npmjs.org when the license
 * feature `feat:communityNodes:customRegistry` is on. This instance is started
 * with E2E_TESTS=true, which mounts n8n's own test hook /rest/e2e (it replaces
 * the license check with a table of features, all off) and the test turns that
 * one feature on with PATCH /rest/e2e/feature.
 *
 * Run: npm run build && npx jest --selectProjects e2e --runInBand test/e2e/registry-install.test.ts
 * (PAYONUS_N8N_VERSION=minimum|current chooses the n8n).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fetch } from 'undici';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { HttpError, N8N_VERSION, nodeItems, packPackage, startN8n, type N8nInstance } from '../../dev/n8n';
import { startVerdaccio, type VerdaccioHandle } from '../harness/verdaccio';
import { createPayOnUsCredential } from '../../dev/sandboxCredential';
import { NODE, payOnUsWorkflow } from '../../dev/workflows';

const packageJson = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
	name: string;
	version: string;
};
const NAME = packageJson.name;
const CUSTOM_REGISTRY_FEATURE = 'feat:communityNodes:customRegistry';
const NODE_TYPES = [`${NAME}.payOnUs`, `${NAME}.payOnUsPaymentPage`, `${NAME}.payOnUsPollTrigger`, `${NAME}.payOnUsTrigger`];

let tgz: string;
let registry: VerdaccioHandle | undefined;
let n8n: N8nInstance | undefined;
let sandbox: SandboxHandle | undefined;
let npmDir: string | undefined;

/** Files of a folder, relative, sorted. */
function filesUnder(dir: string): string[] {
	const out: string[] = [];
	const walk = (current: string): void => {
		for (const entry of readdirSync(current)) {
			const full = join(current, entry);
			if (statSync(full).isDirectory()) walk(full);
			else out.push(relative(dir, full));
		}
	};
	walk(dir);
	return out.sort();
}

/** Files of the packed tarball, relative to its `package/` folder, sorted. */
function filesInTarball(file: string): string[] {
	return execFileSync('tar', ['-tzf', file], { encoding: 'utf8' })
		.split('\n')
		.filter((line) => line && !line.endsWith('/'))
		.map((line) => line.replace(/^package\//, ''))
		.sort();
}

function diagnostics(): string {
	return [
		`--- n8n ${N8N_VERSION} log (last lines):`,
		n8n?.logTail(40) ?? '(not started)',
		'--- verdaccio log (last lines):',
		registry?.logTail(20) ?? '(not started)',
	].join('\n');
}

beforeAll(async () => {
	tgz = packPackage(); // dist/ must be built (npm run build)
	registry = await startVerdaccio();
	await registry.publish(tgz);

	// npm as n8n runs it: own empty cache and user config, so nothing comes from
	// this machine's npm cache or ~/.npmrc; only the registry n8n names.
	npmDir = mkdtempSync(join(tmpdir(), 'payonus-n8n-npm-'));
	writeFileSync(join(npmDir, 'npmrc'), '');
	n8n = await startN8n({
		communityInstall: false,
		env: {
			E2E_TESTS: 'true',
			N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
			N8N_COMMUNITY_PACKAGES_REGISTRY: registry.url,
			N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
			npm_config_cache: join(npmDir, 'cache'),
			npm_config_userconfig: join(npmDir, 'npmrc'),
		},
	});
	sandbox = await startSandbox({ port: 0 });
}, 600_000);

afterAll(async () => {
	// each one stopped even when another fails to stop
	await n8n?.stop().catch((error) => console.error(`n8n stop: ${(error as Error).message}`));
	await sandbox?.stop().catch((error) => console.error(`sandbox stop: ${(error as Error).message}`));
	await registry?.stop().catch((error) => console.error(`verdaccio stop: ${(error as Error).message}`));
	if (npmDir) rmSync(npmDir, { recursive: true, force: true });
}, 120_000);

function instance(): N8nInstance {
	if (!n8n) throw new Error('n8n did not start');
	return n8n;
}

function packageFolder(): string {
	return join(instance().userFolder, '.n8n', 'nodes', 'node_modules', NAME);
}

describe(`installed from a private registry by n8n ${N8N_VERSION}'s own installer`, () => {
	it('the private registry holds the published package and nothing else', async () => {
		const res = await fetch(`${registry!.url}/${NAME}`);
		expect(res.status).toBe(200);
		const meta = (await res.json()) as { 'dist-tags': Record<string, string>; versions: Record<string, { dist: { tarball: string } }> };
		expect(meta['dist-tags'].latest).toBe(packageJson.version);
		expect(meta.versions[packageJson.version].dist.tarball).toBe(`${registry!.url}/${NAME}/-/${NAME}-${packageJson.version}.tgz`);
		expect(registry!.storedPackages()).toEqual([NAME]);
		// no uplinks: an unknown package is not fetched from elsewhere
		expect((await fetch(`${registry!.url}/n8n-workflow`)).status).toBe(404);
	});

	it('n8n starts without the package, and refuses the custom registry until the license feature is on', async () => {
		const n8n = instance();
		const types = (await n8n.loadedNodeTypes()).map((type) => type.name);
		expect(types).toContain('n8n-nodes-base.manualTrigger');
		expect(types.filter((name) => name.startsWith(`${NAME}.`))).toEqual([]);
		expect(existsSync(packageFolder())).toBe(false);

		const refused = await n8n.rest('POST', '/community-packages', { name: NAME, version: packageJson.version }).then(
			() => undefined,
			(error: unknown) => error,
		);
		expect(refused).toBeInstanceOf(HttpError);
		expect((refused as HttpError).body).toContain(CUSTOM_REGISTRY_FEATURE);
		expect(existsSync(packageFolder())).toBe(false);
	});

	it('installs it through POST /rest/community-packages: the 4 nodes of the package', async () => {
		const n8n = instance();
		await n8n.rest('PATCH', '/e2e/feature', { feature: CUSTOM_REGISTRY_FEATURE, enabled: true });
		let installed: { packageName: string; installedVersion: string; authorName?: string; installedNodes: Array<{ name: string; type: string; latestVersion: number }> };
		try {
			installed = await n8n.rest('POST', '/community-packages', { name: NAME, version: packageJson.version });
		} catch (error) {
			throw new Error(`install failed: ${(error as Error).message}\n${diagnostics()}`);
		}
		expect(installed).toMatchObject({ packageName: NAME, installedVersion: packageJson.version, authorName: 'n8n-nodes-payonus developers' });
		expect(installed.installedNodes.map((node) => node.type).sort()).toEqual(NODE_TYPES);
		expect(installed.installedNodes.find((node) => node.type === `${NAME}.payOnUs`)).toMatchObject({ name: 'PayOnUs', latestVersion: 1 });

		// n8n's list of installed packages agrees
		const listed = await n8n.rest<Array<{ packageName: string; installedVersion: string; failedLoading?: boolean }>>('GET', '/community-packages');
		expect(listed.map((p) => [p.packageName, p.installedVersion, Boolean(p.failedLoading)])).toEqual([[NAME, packageJson.version, false]]);
	});

	it('the editor lists the nodes and the credential type', async () => {
		const n8n = instance();
		const types = [...new Set((await n8n.loadedNodeTypes()).map((type) => type.name).filter((name) => name.startsWith(`${NAME}.`)))].sort();
		expect(types).toEqual(expect.arrayContaining([...NODE_TYPES, `${NAME}.payOnUsTool`]));
		expect(types).toContain(`${NAME}.payOnUs`);
		const credentials = await n8n.loadedCredentialTypes();
		expect(credentials.find((type) => type.name === 'payOnUsApi')).toMatchObject({ displayName: 'PayOnUs API' });
	});

	it('the installed folder holds exactly what was packed (no tests, sandbox or sources), fetched from the private registry only', async () => {
		const folder = packageFolder();
		const installedFiles = filesUnder(folder);
		const packedFiles = filesInTarball(tgz);
		expect(installedFiles).toEqual(packedFiles);
		expect(installedFiles.filter((file) => /^(test|sandbox|bench|scripts|nodes|credentials|examples|docs)\//.test(file) || /(?<!\.d)\.ts$/.test(file))).toEqual([]);
		expect(installedFiles).toContain('dist/nodes/PayOnUs/PayOnUs.node.js');
		// n8n strips dev and peer dependencies before `npm install`
		const installedJson = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Record<string, unknown>;
		expect(installedJson).toMatchObject({ name: NAME, version: packageJson.version });
		expect(installedJson).not.toHaveProperty('devDependencies');
		expect(installedJson).not.toHaveProperty('peerDependencies');
		const nodesJson = JSON.parse(readFileSync(join(folder, '..', '..', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
		expect(nodesJson.dependencies).toEqual({ [NAME]: packageJson.version });

		// every package asked of the registry is this one (its tarball included), apart
		// from npm's own update check (GET /npm, 404 here) and the test's /n8n-workflow probe
		await new Promise((resolve) => setTimeout(resolve, 500)); // the log is written asynchronously
		const asked = registry!
			.requests()
			.map((line) => line.split(' ')[1])
			.filter((path) => !path.startsWith('/-/') && path !== '/npm' && path !== '/n8n-workflow');
		expect(asked).toContain(`/${NAME}/-/${NAME}-${packageJson.version}.tgz`);
		expect(asked.filter((path) => path !== `/${NAME}` && !path.startsWith(`/${NAME}/`))).toEqual([]);
	});

	it('runs a workflow with the installed PayOnUs node: List Wallets from the sandbox', async () => {
		const n8n = instance();
		const credentialId = await createPayOnUsCredential(n8n, sandbox!.url, 'PayOnUs registry-install e2e');
		const { id } = await n8n.createWorkflow(
			payOnUsWorkflow('registry install: list wallets', credentialId, { resource: 'wallet', operation: 'listWallets', merchantId: 'MER-1001' }, [
				{ json: {} },
			]),
		);
		const execution = await n8n.runWorkflow(id);
		if (execution.status !== 'success') throw new Error(`execution ${execution.id}: ${String(execution.status)}\n${JSON.stringify(execution.data).slice(0, 2000)}\n${diagnostics()}`);
		const wallets = nodeItems(execution, NODE);
		// Seed: BUS-2001 NGN, KES, ZAR, USD; BUS-2002 NGN, ZAR; BUS-2003 NGN
		expect(wallets.map((w) => `${String(w.entityId)}/${String(w.currency)}`).sort()).toEqual(
			['BUS-2001/NGN', 'BUS-2001/KES', 'BUS-2001/ZAR', 'BUS-2001/USD', 'BUS-2002/NGN', 'BUS-2002/ZAR', 'BUS-2003/NGN'].sort(),
		);
		for (const wallet of wallets) expect(wallet).toMatchObject({ status: 'ACTIVE', entityType: 'BUSINESS' });
	});
});
