/**
 * `npm start`: the whole demo with one command, in the production topology.
 *
 *   - the sandbox of the payments service (fixed port, default 4010), seeded;
 *   - a mail catcher (MailDev: SMTP default port 1025, web inbox default
 *     1080) that the notification e-mails land in, and the chat stand-in
 *     (files/chat.log) of the nightly reconciliation;
 *   - a real n8n (embedded SQLite, default port 5678) in a persistent folder
 *     (default ./.payonus-start/) with this package installed as a community
 *     package, an owner account, a PayOnUs API credential pointing at the
 *     sandbox, an SMTP credential pointing at the mail catcher and the example
 *     workflows imported and active;
 *   - the sandbox's webhook settings pointing at the ONE receiving workflow's
 *     PayOnUs Trigger (the service sends to one URL per environment), with
 *     the verification key the credential holds; the receiver hands each
 *     event to the other workflows with n8n's Execute Workflow node.
 *
 * Running it again on the same folder reuses the owner, the credential and the
 * workflows. Ctrl-C / SIGTERM stops everything.
 *
 * Options (or environment): --folder DIR (PAYONUS_START_FOLDER),
 * --n8n-port N (PAYONUS_N8N_PORT), --sandbox-port N (PAYONUS_SANDBOX_PORT),
 * --mail-port N (PAYONUS_MAIL_PORT, the web inbox), --smtp-port N (PAYONUS_SMTP_PORT),
 * --refresh-examples (replace the stored workflows with examples/*.json).
 * PAYONUS_N8N_VERSION=minimum|current|x.y.z picks the n8n (default: current).
 */
import { existsSync, mkdirSync, statfsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { SandboxClient } from '../sandbox/client';
import { startSandbox, type SandboxHandle } from '../sandbox/server';
import { whenParentGone } from '../sandbox/parentWatch';
import { ensureN8nInstalled, N8N_VERSION, N8N_VERSIONS, startN8n, type N8nInstance } from '../dev/n8n';
import { startMailCatcher, smtpCredentialData, type MailCatcher } from '../dev/mailCatcher';
import { startChatStandIn, type ChatStandIn } from './lib/chatStandIn';
import { startScriptedModel, type ScriptedModel } from '../dev/scriptedChatModel';
import { provision, CREDENTIAL_NAME, NO_MODEL_ANSWER, SMTP_CREDENTIAL_NAME } from './lib/provision';
import { DEMO_LEDGER_NAME, ensureDemoLedger } from './lib/demoLedger';
import { releaseLock, tryLock } from '../dev/pidLock';
import {
	DEFAULT_MAIL_PORT,
	DEFAULT_N8N_PORT,
	DEFAULT_SANDBOX_PORT,
	DEFAULT_SMTP_PORT,
	loadOrCreateState,
	readState,
	resolveFolder,
	writeState,
} from './lib/state';

export const DEMO_OWNER = {
	email: 'owner@example.com',
	firstName: 'Demo',
	lastName: 'Owner',
	password: 'PayOnUs-demo-1',
};

/** Printed once everything is up; tests and the bench wait for it. */
export const READY_MARKER = 'PayOnUs demo is ready';

interface Args {
	folder: string;
	n8nPort: number;
	sandboxPort: number;
	mailPort: number;
	smtpPort: number;
	refresh: boolean;
}

function parseArgs(argv: string[]): Args {
	const value = (flag: string): string | undefined => {
		const index = argv.indexOf(flag);
		if (index >= 0) return argv[index + 1];
		const inline = argv.find((a) => a.startsWith(`${flag}=`));
		return inline?.slice(flag.length + 1);
	};
	const port = (flag: string, env: string, fallback: number): number => {
		const raw = value(flag) ?? process.env[env];
		if (raw === undefined || raw === '') return fallback;
		const n = Number(raw);
		if (!Number.isInteger(n) || n <= 0 || n > 65535) throw new Error(`${flag} must be a port number, got "${raw}"`);
		return n;
	};
	return {
		folder: resolveFolder(value('--folder')),
		n8nPort: port('--n8n-port', 'PAYONUS_N8N_PORT', DEFAULT_N8N_PORT),
		sandboxPort: port('--sandbox-port', 'PAYONUS_SANDBOX_PORT', DEFAULT_SANDBOX_PORT),
		mailPort: port('--mail-port', 'PAYONUS_MAIL_PORT', DEFAULT_MAIL_PORT),
		smtpPort: port('--smtp-port', 'PAYONUS_SMTP_PORT', DEFAULT_SMTP_PORT),
		refresh: argv.includes('--refresh-examples'),
	};
}

/** A failure the user can act on: printed as one line, no stack trace. */
class StartError extends Error {}

async function assertPortFree(port: number, what: string, flag: string): Promise<void> {
	await new Promise<void>((resolve, reject) => {
		const server = createServer();
		server.once('error', () =>
			reject(new StartError(`port ${port} (${what}) is in use: stop what holds it or pick another with ${flag} N`)),
		);
		server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
	});
}

function say(line = ''): void {
	process.stdout.write(`${line}\n`);
}

/** One `npm start` per folder: a second one would share its database and break the first. */
function lockFolder(folder: string): () => void {
	const lock = join(folder, 'start.lock');
	const taken = tryLock(lock);
	if (!taken.held) {
		const url = readState(folder)?.n8nUrl;
		throw new StartError(
			`npm start is already running on ${folder} (process ${taken.holder}${url ? `, n8n at ${url}` : ''}): use it, stop it with Ctrl-C, or start another demo with --folder OTHER_DIR --n8n-port N --sandbox-port N`,
		);
	}
	const release = (): void => releaseLock(lock);
	process.on('exit', release);
	return release;
}

function assertDiskSpace(folder: string): void {
	try {
		const st = statfsSync(folder);
		const free = st.bavail * st.bsize;
		if (free < 300 * 1024 ** 2) {
			throw new StartError(`only ${Math.round(free / 1024 ** 2)} MB free on the disk of ${folder}: n8n needs a few hundred MB; free some space first`);
		}
	} catch (error) {
		if (error instanceof StartError) throw error;
	}
}

async function main(): Promise<void> {
	const started = Date.now();
	let args: Args;
	try {
		args = parseArgs(process.argv.slice(2));
	} catch (error) {
		throw new StartError((error as Error).message);
	}
	lockFolder(args.folder);
	assertDiskSpace(args.folder);
	await assertPortFree(args.sandboxPort, 'sandbox', '--sandbox-port');
	await assertPortFree(args.n8nPort, 'n8n', '--n8n-port');
	await assertPortFree(args.mailPort, 'mail inbox', '--mail-port');
	await assertPortFree(args.smtpPort, 'mail catcher SMTP', '--smtp-port');
	// before anything listens: the first run installs n8n (minutes, with progress)
	try {
		ensureN8nInstalled();
	} catch {
		throw new StartError(
			`n8n ${N8N_VERSION} could not be installed (the line above says why). Run \`npm start\` again to retry; PAYONUS_N8N_VERSION=${N8N_VERSIONS.minimum} npm start uses the oldest supported n8n.`,
		);
	}
	const state = loadOrCreateState(args.folder);
	const filesDir = join(args.folder, 'files');
	mkdirSync(filesDir, { recursive: true });

	let sandbox: SandboxHandle | undefined;
	let mail: MailCatcher | undefined;
	let chat: ChatStandIn | undefined;
	let model: ScriptedModel | undefined;
	let n8n: N8nInstance | undefined;
	let stopping = false;

	const shutdown = async (signal: string): Promise<void> => {
		if (stopping) return;
		stopping = true;
		say(`\n${signal}: stopping n8n, the mail catcher, the chat stand-in and the sandbox...`);
		try {
			await n8n?.stop();
		} catch (error) {
			say(`n8n: ${(error as Error).message}`);
		}
		await mail?.stop();
		await chat?.stop();
		await model?.stop();
		await sandbox?.stop();
		say('stopped.');
		process.exit(0);
	};
	let firstSignalAt = 0;
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.on(signal, () => {
			if (stopping) {
				// Ctrl-C in a terminal may reach us twice at once (from the terminal and
				// forwarded by npm): only a later, deliberate second Ctrl-C gives up
				// waiting (the harness's exit hook then kills what is left).
				if (Date.now() - firstSignalAt > 2000) process.exit(130);
				return;
			}
			firstSignalAt = Date.now();
			void shutdown(signal);
		});
	}
	// npm's shell dies of a SIGTERM without passing it on: stop as if we had it
	whenParentGone(() => void shutdown('SIGTERM (to npm)'));

	say(`folder ${args.folder}`);
	sandbox = await startSandbox({ port: args.sandboxPort });
	say(`sandbox listening on ${sandbox.url}`);
	mail = await startMailCatcher({
		smtpPort: args.smtpPort,
		webPort: args.mailPort,
		mailDirectory: join(args.folder, 'mail'),
		logFile: join(args.folder, 'maildev.log'),
	});
	say(`mail catcher: inbox ${mail.webUrl}, SMTP ${mail.smtpHost}:${mail.smtpPort}`);
	chat = await startChatStandIn({ chatFile: join(filesDir, 'chat.log') });
	// the payments agent's model until the user picks theirs (a stand-in that only says so)
	model = await startScriptedModel([{ text: NO_MODEL_ANSWER }]);

	const fresh = !existsSync(join(args.folder, 'main', '.n8n', 'database.sqlite'));
	say(`starting n8n ${N8N_VERSION} on port ${args.n8nPort}${fresh ? ' (new folder: owner, credential and workflows are set up)' : ''}...`);
	n8n = await startN8n({
		userFolder: args.folder,
		port: args.n8nPort,
		ownerAccount: DEMO_OWNER,
		handleSignals: false,
		env: {
			N8N_RESTRICT_FILE_ACCESS_TO: filesDir,
			GENERIC_TIMEZONE: process.env.TZ ?? 'UTC',
		},
	});
	if (stopping) return;
	say(`n8n listening on ${n8n.baseUrl}`);

	// the nightly reconciliation example's ledger (an n8n Data table) and chat (the stand-in writes chat.log)
	let ledgerTableId: string | undefined;
	try {
		const ledger = await ensureDemoLedger(n8n);
		ledgerTableId = ledger.id;
		say(`  Data table "${DEMO_LEDGER_NAME}" ${ledger.created ? 'created' : 'reused'} (${ledger.id})`);
	} catch (error) {
		say(`  Data table "${DEMO_LEDGER_NAME}" not available (${(error as Error).message}): set its ID in the nightly reconciliation's Settings`);
	}
	const provisioned = await provision(n8n, {
		sandboxUrl: sandbox.url,
		verificationKey: state.verificationKey,
		filesDir,
		refresh: args.refresh,
		demo: { ledgerTableId, chatUrl: chat.url },
		smtp: smtpCredentialData(mail),
		cardPublicKey: await new SandboxClient(sandbox.url).publicKey(),
		// the receiver forwards checkout payins to the example page (a buyer who closed the tab still starts it)
		webhookUrl: (path) => n8n.webhookUrl(path),
		chatModelStandInUrl: model.url,
		log: (l) => say(`  ${l}`),
	});
	// the sandbox delivers every notification to the ONE receiving workflow, as the service does
	const receiver = provisioned.workflows.find((w) => w.key === 'receiver');
	const receiverPath = receiver?.triggerPaths[0];
	if (!receiver || receiverPath === undefined) throw new StartError('the receiving workflow (examples/payonus-events.json) has no active PayOnUs Trigger');
	const webhookUrl = n8n.webhookUrl(receiverPath);
	await new SandboxClient(sandbox.url).setWebhooks({ url: webhookUrl, verificationKey: state.verificationKey });

	const cardOnFile = provisioned.workflows.find((w) => w.key === 'cardOnFile');
	const cardOnFileStartUrl = cardOnFile?.webhookPaths[0] ? n8n.webhookUrl(cardOnFile.webhookPaths[0]) : undefined;
	writeState(args.folder, {
		...state,
		sandboxUrl: sandbox.url,
		n8nUrl: n8n.baseUrl,
		webhookUrl,
		mailUrl: mail.webUrl,
		smtp: { host: mail.smtpHost, port: mail.smtpPort },
		chatUrl: chat.url,
		filesDir,
		owner: { email: DEMO_OWNER.email, password: DEMO_OWNER.password },
		credentialId: provisioned.credential.id,
		workflows: Object.fromEntries(provisioned.workflows.map((w) => [w.key, { id: w.id, name: w.name }])),
		cardOnFileStartUrl,
		pid: process.pid,
		readyAt: new Date().toISOString(),
	});

	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	say('');
	say('------------------------------------------------------------------');
	say(`${READY_MARKER} (${seconds} s)`);
	say('');
	say(`  n8n editor   ${n8n.baseUrl}/`);
	say(`  login        ${DEMO_OWNER.email} / ${DEMO_OWNER.password}`);
	say(`  sandbox      ${sandbox.url}  (ledger: ${sandbox.url}/_sandbox/ledger)`);
	say(`  mail inbox   ${mail.webUrl}  (the notification e-mails; SMTP ${mail.smtpHost}:${mail.smtpPort}, credential "${SMTP_CREDENTIAL_NAME}")`);
	say(`  credential   "${CREDENTIAL_NAME}" (sandbox-client-1, merchant MER-1001, business BUS-2001)`);
	say(`  webhook URL  ${webhookUrl}  (the one URL the sandbox notifies: the receiving workflow)`);
	say(`  files        ${filesDir}  (payout log, sales log, reconciliation CSV, chat.log of the chat stand-in)`);
	say('  workflows (active):');
	for (const w of provisioned.workflows) say(`    - ${w.name}  ${n8n.baseUrl}/workflow/${w.id}`);
	say('');
	say('  Play the customer in another terminal:');
	say(`    npm run customer${args.folder === resolveFolder() ? '' : ` -- --folder ${args.folder}`}`);
	say('  (pays a dynamic account, approves a mobile money charge, stores a card on the');
	say('   consent page) then watch Executions in n8n, the mail inbox and the files folder.');
	say('');
	say('  Ctrl-C stops everything; `npm start` again reuses this folder.');
	say('------------------------------------------------------------------');
}

main().catch((error) => {
	if (error instanceof StartError) process.stderr.write(`npm start: ${error.message}\n`);
	else process.stderr.write(`npm start failed: ${(error as Error).stack ?? String(error)}\n`);
	// the harness's exit hook kills an n8n that was starting
	process.exit(1);
});
