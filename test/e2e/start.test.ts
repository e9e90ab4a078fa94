/**
 * `npm start` (build/scripts/start.js) comes up and tears down cleanly, twice
 * in a row on the same folder: the second run reuses the owner, the
 * credential and the workflows (nothing duplicated). Needs `npm run build`
 * and `npm run build:tools` first (the script runs compiled, as `npm start` does).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { N8nClient, freePort, packageRoot } from '../../dev/n8n';
import { SandboxClient } from '../../sandbox/client';
import { EXAMPLES, loadExample } from '../../scripts/lib/examples';
import { CREDENTIAL_NAME } from '../../scripts/lib/provision';
import { readState } from '../../scripts/lib/state';
import { Shop, payDynamicAccount } from '../../scripts/play-customer';
import { until } from '../../dev/wait';

jest.setTimeout(600_000);

const READY = 'PayOnUs demo is ready';
const BANNER_END = 'Ctrl-C stops everything';
const OWNER = { email: 'owner@example.com', password: 'PayOnUs-demo-1' };
const EXAMPLE_NAMES = Object.keys(EXAMPLES).map((key) => loadExample(key as keyof typeof EXAMPLES).name);

interface Run {
	child: ChildProcess;
	output: () => string;
	readyMs: number;
}

let folder: string;
let n8nPort: number;
let sandboxPort: number;
let mailPort: number;
let smtpPort: number;
const live: ChildProcess[] = [];

/**
 * Starts the compiled script; `throughShell` runs it as npm does (`sh -c`),
 * so that the child is the shell npm would signal.
 */
async function startOnce(opts: { throughShell?: boolean } = {}): Promise<Run> {
	const script = join(packageRoot(), 'build', 'scripts', 'start.js');
	if (!existsSync(script)) throw new Error(`${script} missing: run \`npm run build:tools\` first`);
	const started = Date.now();
	const argv = [
		process.execPath,
		script,
		'--folder',
		folder,
		'--n8n-port',
		String(n8nPort),
		'--sandbox-port',
		String(sandboxPort),
		'--mail-port',
		String(mailPort),
		'--smtp-port',
		String(smtpPort),
	];
	const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
	const child = opts.throughShell
		? spawn('sh', ['-c', argv.map(quote).join(' ')], { cwd: packageRoot(), stdio: ['ignore', 'pipe', 'pipe'] })
		: spawn(argv[0], argv.slice(1), { cwd: packageRoot(), stdio: ['ignore', 'pipe', 'pipe'] });
	live.push(child);
	let out = '';
	child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
	await new Promise<void>((resolve, reject) => {
		const timer = setInterval(() => {
			// the banner comes in several writes: read it once its last line is there
			if (out.includes(READY) && out.includes(BANNER_END)) {
				clearInterval(timer);
				resolve();
			} else if (child.exitCode !== null || Date.now() - started > 300_000) {
				clearInterval(timer);
				reject(new Error(`npm start did not become ready (exit ${String(child.exitCode)}):\n${out}`));
			}
		}, 100);
	});
	return { child, output: () => out, readyMs: Date.now() - started };
}

async function stop(run: Run): Promise<number | null> {
	const exited = new Promise<number | null>((resolve) => run.child.once('exit', (code) => resolve(code)));
	run.child.kill('SIGTERM');
	const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 60_000).unref())]);
	if (code === 'timeout') throw new Error(`npm start did not stop within 60 s after SIGTERM:\n${run.output()}`);
	return code;
}

/**
 * What npm does on a SIGTERM (`docker stop`, systemd): it forwards the signal
 * to the shell that runs the script, and the shell dies without passing it on.
 * The script must notice and stop everything by itself.
 */
async function stopThroughShell(run: Run): Promise<void> {
	run.child.kill('SIGTERM');
	await until('"stopped." within 60 s after its shell got SIGTERM', 60_000, async () => (run.output().includes('stopped.') ? true : undefined)).catch(
		(error: Error) => {
			throw new Error(`npm start: ${error.message}:\n${run.output()}`);
		},
	);
}

/** The process that holds the folder's lock (the script itself), if one does. */
function lockHolder(): number | undefined {
	const file = join(folder, 'start.lock');
	return existsSync(file) ? Number(readFileSync(file, 'utf8')) || undefined : undefined;
}

async function portFree(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

async function login(baseUrl: string): Promise<N8nClient> {
	const res = await fetch(`${baseUrl}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }),
	});
	expect(res.status).toBe(200);
	const cookie = res.headers
		.getSetCookie()
		.map((h) => /^n8n-auth=([^;]+)/.exec(h)?.[1])
		.find(Boolean);
	expect(cookie).toBeTruthy();
	return new N8nClient({ baseUrl, apiKey: '', cookie: cookie! });
}

interface Snapshot {
	workflows: Array<{ id: string; name: string; active: boolean }>;
	credentials: Array<{ id: string; name: string; type: string }>;
	apiKeys: Array<{ label: string }>;
	users: number;
}

/** What the running demo holds, checked against what it should hold. */
async function inspect(run: Run): Promise<Snapshot> {
	const state = readState(folder)!;
	expect(state.n8nUrl).toBe(`http://127.0.0.1:${n8nPort}`);
	expect(state.sandboxUrl).toBe(`http://127.0.0.1:${sandboxPort}`);
	expect(run.output()).toContain(`login        ${OWNER.email} / ${OWNER.password}`);
	expect(run.output()).toContain('npm run customer');

	// n8n is up and the owner can log in
	expect((await fetch(`${state.n8nUrl}/healthz`)).status).toBe(200);
	const n8n = await login(state.n8nUrl!);
	const workflows = (await n8n.rest<Array<{ id: string; name: string; active: boolean }>>('GET', '/workflows')).filter((w) =>
		EXAMPLE_NAMES.includes(w.name),
	);
	const credentials = await n8n.rest<Array<{ id: string; name: string; type: string }>>('GET', '/credentials');
	const apiKeys = await n8n.listApiKeys();
	const users = await n8n.rest<{ count: number; items: Array<{ email: string }> }>('GET', '/users');

	// the sandbox is up, seeded, and sends its notifications (with the credential's key) to the
	// ONE receiving workflow's PayOnUs Trigger: no relay of our own in between
	const sandbox = new SandboxClient(String(state.sandboxUrl));
	const hooks = await sandbox.webhooks();
	const receiver = workflows.find((w) => w.name === loadExample('receiver').name)!;
	expect(hooks.url).toBe(state.webhookUrl);
	expect(hooks.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${n8nPort}/webhook/payonus-example-events/webhook$`));
	expect(state.workflows?.receiver?.id).toBe(receiver.id);
	// the mail catcher's web inbox answers (a page a person opens) and its API too
	expect(state.mailUrl).toBe(`http://127.0.0.1:${mailPort}/`);
	expect(run.output()).toContain(`mail inbox   http://127.0.0.1:${mailPort}/`);
	const inbox = await fetch(String(state.mailUrl), { headers: { accept: 'text/html' } });
	expect(inbox.status).toBe(200);
	expect(await inbox.text()).toContain('<html');
	expect(hooks.verificationKey).toBe(state.verificationKey);
	const ledger = await sandbox.ledger();
	expect(ledger.wallets.filter((w) => w.entityId === 'BUS-2001').map((w) => w.currency).sort()).toEqual(['KES', 'NGN', 'USD', 'ZAR']);

	expect(users.items.map((u) => u.email)).toEqual([OWNER.email]);
	return { workflows, credentials, apiKeys, users: users.count };
}

beforeAll(async () => {
	// `npm start` runs the compiled script: compile the current sources first if
	// they changed, as `npm start` does (tsc writes its output even when some
	// other file has a type error)
	try {
		execFileSync(process.execPath, [join(packageRoot(), 'scripts', 'build-if-changed.js'), 'tools'], {
			cwd: packageRoot(),
			stdio: 'pipe',
		});
	} catch {
		// reported below if the script is missing
	}
	folder = mkdtempSync(join(tmpdir(), 'payonus-start-test-'));
	n8nPort = await freePort();
	sandboxPort = await freePort();
	mailPort = await freePort();
	smtpPort = await freePort();
});

afterAll(async () => {
	// a run left up by a failed expectation: SIGTERM lets it stop n8n (which runs
	// in its own process group); SIGKILL only if it does not exit in time
	for (const child of live) {
		if (child.exitCode !== null || child.signalCode !== null) continue;
		const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
		child.kill('SIGTERM');
		const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
		await exited;
		clearTimeout(timer);
	}
	// a script orphaned by its shell that did not stop itself (the test then failed)
	const orphan = folder ? lockHolder() : undefined;
	if (orphan) {
		try {
			process.kill(orphan, 'SIGTERM');
		} catch {
			// already gone
		}
	}
	if (folder) rmSync(folder, { recursive: true, force: true });
});

it('comes up, tears down on SIGTERM (also when only npm\'s shell gets it), and comes up again on the same folder with nothing duplicated', async () => {
	// first run: a fresh folder
	const first = await startOnce();
	const one = await inspect(first);
	expect(one.workflows.map((w) => w.name).sort()).toEqual([...EXAMPLE_NAMES].sort());
	expect(one.workflows.every((w) => w.active)).toBe(true);
	expect(one.credentials.filter((c) => c.name === CREDENTIAL_NAME)).toHaveLength(1);
	expect(one.apiKeys.filter((k) => k.label === 'payonus-start')).toHaveLength(1);
	expect(one.users).toBe(1);
	expect(first.output()).toMatch(/credential "PayOnUs sandbox \(npm start\)" created/);

	expect(await stop(first)).toBe(0);
	expect(first.output()).toContain('stopped.');
	expect(await portFree(n8nPort)).toBe(true);
	expect(await portFree(sandboxPort)).toBe(true);
	expect(await portFree(mailPort)).toBe(true);
	expect(await portFree(smtpPort)).toBe(true);

	// second run: same folder, everything reused; started through a shell, as npm does
	const second = await startOnce({ throughShell: true });
	const two = await inspect(second);
	expect(two.workflows.map((w) => w.id).sort()).toEqual(one.workflows.map((w) => w.id).sort());
	expect(two.workflows.every((w) => w.active)).toBe(true);
	expect(two.credentials.filter((c) => c.name === CREDENTIAL_NAME).map((c) => c.id)).toEqual(
		one.credentials.filter((c) => c.name === CREDENTIAL_NAME).map((c) => c.id),
	);
	expect(two.apiKeys.filter((k) => k.label === 'payonus-start')).toHaveLength(1);
	expect(two.users).toBe(1);
	expect(second.output()).toMatch(/credential "PayOnUs sandbox \(npm start\)" reused/);
	expect(second.output()).not.toMatch(/imported/);

	// and it works: a customer's payment reaches the receiving workflow, which hands it to the
	// auto-payout (the share is paid) and to the notifications (an e-mail lands in the inbox)
	const state = readState(folder)!;
	const shop = new Shop(state.sandboxUrl!);
	const ref = await payDynamicAccount(shop, 10000, `start-test-${Date.now()}`);
	const sandbox = new SandboxClient(String(state.sandboxUrl));
	const share = await until('the supplier share of the payment', 60_000, async () =>
		(await sandbox.ledger()).transfers.find((t) => t.merchantReference === `share-${ref}`),
	);
	expect(share.amount).toBe(1000);
	const mails = await until('the e-mail of the payment in the mail catcher', 60_000, async () => {
		const res = await fetch(`${state.mailUrl!}api/email`);
		const all = (await res.json()) as Array<{ subject: string }>;
		const found = all.filter((m) => m.subject.includes(ref));
		return found.length > 0 ? found : undefined;
	});
	expect(mails.map((m) => m.subject)).toEqual([`Payment received: NGN 10000 (${ref})`]);

	// and the nightly reconciliation runs out of the box: the demo ledger (a Data
	// table made once) against the sandbox, its summary in files/chat.log
	expect(first.output()).toContain('Data table "PayOnUs demo ledger" created');
	expect(second.output()).toContain('Data table "PayOnUs demo ledger" reused');
	const nightly = two.workflows.find((w) => w.name === 'PayOnUs example: Nightly reconciliation');
	expect(nightly).toBeDefined();
	const editor = await login(state.n8nUrl!);
	// the consumers carry their pinned sample PayOnUs item, as when the file is imported in the editor
	const autoPayout = two.workflows.find((w) => w.name === loadExample('autoPayout').name)!;
	const pinned = await editor.rest<{ pinData?: Record<string, Array<{ json: Record<string, unknown> }>> }>('GET', `/workflows/${autoPayout.id}`);
	expect(pinned.pinData?.['Collection received']?.[0]?.json).toMatchObject({ event: 'COLLECTION', confirmed: true, onusReference: 'ONUS-NUB-SAMPLE-0001' });
	const workflowData = await editor.rest('GET', `/workflows/${nightly!.id}`);
	await editor.rest('POST', `/workflows/${nightly!.id}/run`, { workflowData, triggerToStartFrom: { name: 'Every night at 02:00' } });
	const chatLog = join(folder, 'files', 'chat.log');
	const chat = await until('the summary in chat.log', 120_000, async () => (existsSync(chatLog) ? readFileSync(chatLog, 'utf8') : undefined));
	expect(chat).toMatch(/PayOnUs reconciliation of the payouts of \d{4}-\d{2}-\d{2} \(BUS-2001\): 2 to check/);
	expect(chat).toContain('missing at PayOnUs 2');

	// SIGTERM reaches the shell only (as from npm): the script stops everything itself
	expect(lockHolder()).toBeDefined();
	await stopThroughShell(second);
	expect(second.output()).toContain('SIGTERM (to npm): stopping');
	await until('the folder lock released', 10_000, async () => (lockHolder() === undefined ? true : undefined));
	expect(lockHolder()).toBeUndefined();
	expect(await portFree(n8nPort)).toBe(true);
	expect(await portFree(sandboxPort)).toBe(true);
	process.stdout.write(`npm start ready: cold ${first.readyMs} ms, warm ${second.readyMs} ms\n`);
});
