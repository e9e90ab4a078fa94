/** `npm pack` of this package and the community install of the tarball into a user folder. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_NAME, packageRoot } from './version';

/** The folder that gets packed: this package, or PAYONUS_PACKAGE_DIR (harness self-tests with a stand-in package). */
function packedPackageDir(): string {
	return process.env.PAYONUS_PACKAGE_DIR ?? packageRoot();
}

let packed: { tgz: string; dir: string } | undefined;

/** `npm pack` of the package (once per process). dist/ must be built. */
export function packPackage(): string {
	if (packed && existsSync(packed.tgz)) return packed.tgz;
	const root = packedPackageDir();
	const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
		name?: string;
		n8n?: { nodes?: string[]; credentials?: string[] };
	};
	if (pkg.name !== PACKAGE_NAME) throw new Error(`${root} holds ${String(pkg.name)}, not ${PACKAGE_NAME}`);
	const listed = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	const missing = listed.filter((file) => !existsSync(join(root, file)));
	if (missing.length > 0) {
		throw new Error(`dist/ is not built or incomplete (missing ${missing.join(', ')}); run \`npm run build\` first`);
	}
	const dir = mkdtempSync(join(tmpdir(), 'payonus-pack-'));
	const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const [{ filename }] = JSON.parse(out) as Array<{ filename: string }>;
	packed = { tgz: join(dir, filename), dir };
	return packed.tgz;
}

/** Extracts the packed package into <userFolder>/.n8n/nodes/node_modules/<name>, as n8n's installer leaves it. */
export function communityInstall(userFolder: string, tgz: string): void {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const target = join(nodesDir, 'node_modules', PACKAGE_NAME);
	mkdirSync(target, { recursive: true });
	execFileSync('tar', ['-xzf', tgz, '--strip-components=1', '-C', target]);
	const version = (JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as { version: string }).version;
	writeFileSync(
		join(nodesDir, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [PACKAGE_NAME]: version } }, null, 2),
	);
}

/** Removes the folder of the packed tarball (at exit). */
export function removePacked(): void {
	if (packed) rmSync(packed.dir, { recursive: true, force: true });
}
