/**
 * What `npm publish` would ship: `npm pack --dry-run --json` on the built
 * package. Only dist/ (compiled code, icons, codex JSON), README.md, LICENSE
 * and package.json; no tests, dev tools, sources, source maps or anything
 * that looks like a secret; and a size budget.
 *
 * dist/ is not built here (like the e2e harness): `npm test` builds first;
 * on its own, run `npm run build` before `npx jest --selectProjects unit`.
 */
import { execFileSync } from 'child_process';
import { existsSync, readFileSync } from 'fs';
import { join, posix } from 'path';

const root = join(__dirname, '..', '..');

// Measured at 0.1.0+: 83,458 bytes packed, 323,266 unpacked, 68 files;
// with the Payment Page node (issue 15): 112,224 / 425,744 / 76.
// About 30 % headroom; raise them on purpose when the package really grows.
const BUDGET = { packedBytes: 290_000, unpackedBytes: 1_040_000, files: 225 }; // measured 251,949 / 902,055 / 191 after issues 36-38 (the value readers, the signed fields' forms, the token breaker, the page's price terms, redirects, catch-up and notification door, account-state errors; issue 39's one version per node should bring it down); 221,772 / 800,630 / 176 after issue 29 (the proof of each money movement, stated errors, per-currency limits and node version 4, the page's bounds and phone views, the Poll Trigger in the Trigger's shape); before that measured 199,929 / 726,184 / 167 after issues 22-25 (the webhook nodes as one file per step, the money-moving contract in one folder, a README with the bounds and a before/after); 172,110 / 628,239 / 125 after issue 17

interface PackFile {
	path: string;
	size: number;
}
interface PackResult {
	size: number;
	unpackedSize: number;
	entryCount: number;
	files: PackFile[];
}

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
	main?: string;
	files?: string[];
	n8n: { nodes: string[]; credentials: string[] };
};
const entryPoints = [...manifest.n8n.nodes, ...manifest.n8n.credentials];

let pack: PackResult;
let paths: string[];

beforeAll(() => {
	const missing = entryPoints.filter((p) => !existsSync(join(root, p)));
	if (missing.length > 0) {
		throw new Error(`dist/ is not built or incomplete (missing ${missing.join(', ')}); run \`npm run build\` first`);
	}
	const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		timeout: 60_000,
	});
	pack = (JSON.parse(out) as PackResult[])[0];
	paths = pack.files.map((f) => f.path);
}, 90_000);

describe('published package contents', () => {
	it('holds only dist/, README.md, LICENSE and package.json', () => {
		const outside = paths.filter((p) => !p.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(p));
		expect(outside).toEqual([]);
		for (const required of ['README.md', 'LICENSE', 'package.json']) expect(paths).toContain(required);
	});

	it('has every node and credential package.json points n8n at, and no dangling main', () => {
		for (const entry of entryPoints) expect(paths).toContain(posix.normalize(entry));
		if (manifest.main !== undefined) expect(paths).toContain(posix.normalize(manifest.main));
	});

	it('ships compiled code, icons and codex JSON only: no TypeScript, declarations or source maps', () => {
		const dist = paths.filter((p) => p.startsWith('dist/'));
		expect(dist.filter((p) => !/\.(js|json|svg|png)$/.test(p))).toEqual([]);
		expect(paths.filter((p) => p.endsWith('.map'))).toEqual([]);
		expect(paths.filter((p) => p.endsWith('.ts'))).toEqual([]);
		const inlineMaps = dist
			.filter((p) => p.endsWith('.js'))
			.filter((p) => readFileSync(join(root, p), 'utf8').includes('sourceMappingURL='));
		expect(inlineMaps).toEqual([]);
	});

	it('has no tests, sandbox, development library, benchmarks, scripts, examples or docs', () => {
		const devDirs = new Set(['test', 'tests', '__tests__', 'sandbox', 'dev', 'bench', 'scripts', 'examples', 'docs', 'build', 'node_modules']);
		const dev = paths.filter((p) => p.split('/').some((segment) => devDirs.has(segment)) || /\.(test|spec)\.js$/.test(p));
		expect(dev).toEqual([]);
	});

	it('has no file that looks like a secret or local config', () => {
		const secretLike = /(^|\/)(\.env(\..*)?|\.npmrc|id_(rsa|ed25519|ecdsa)(\.pub)?|[^/]*\.(pem|key|p12|pfx|crt|cer|jks|keystore))$/i;
		expect(paths.filter((p) => secretLike.test(p))).toEqual([]);
	});

	it(`stays within the size budget (${BUDGET.packedBytes} B packed, ${BUDGET.unpackedBytes} B unpacked, ${BUDGET.files} files)`, () => {
		expect(pack.size).toBeLessThanOrEqual(BUDGET.packedBytes);
		expect(pack.unpackedSize).toBeLessThanOrEqual(BUDGET.unpackedBytes);
		expect(pack.entryCount).toBeLessThanOrEqual(BUDGET.files);
	});
});
