/**
 * A local mail catcher: MailDev (the `maildev` devDependency), an SMTP server
 * that keeps every message it receives and shows them in a web inbox, with a
 * REST API (`GET /api/email`) the tests read. `npm start` runs one for the
 * notification examples (n8n's Send Email node, SMTP credential pointing at
 * it); the e2e tests run their own.
 *
 * It runs as a child process in its own process group (MailDev is an ES
 * module with its own signal handling), bound to 127.0.0.1 only, and is
 * killed with this process at the latest.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, packageRoot } from './n8n';
import { sleep } from './wait';

export interface CaughtMail {
	id: string;
	subject: string;
	text?: string;
	/** The HTML body, when the message has one (n8n's approval e-mails are HTML only). */
	html?: string;
	time: string;
	from: Array<{ address: string; name?: string }>;
	to: Array<{ address: string; name?: string }>;
}

export interface MailCatcher {
	/** SMTP host and port for n8n's SMTP credential (no TLS, no login). */
	smtpHost: string;
	smtpPort: number;
	/** The web inbox a person opens. */
	webUrl: string;
	/** Every message caught so far, oldest first (read through MailDev's REST API). */
	messages(): Promise<CaughtMail[]>;
	stop(): Promise<void>;
}

export interface MailCatcherOptions {
	/** SMTP port (default: a free one). */
	smtpPort?: number;
	/** Web inbox and API port (default: a free one). */
	webPort?: number;
	/** Folder that keeps the messages across runs (default: memory only). */
	mailDirectory?: string;
	/** MailDev's own output (default: discarded). */
	logFile?: string;
}

/** The SMTP credential data (n8n's `smtp` credential type) for this catcher. */
export function smtpCredentialData(catcher: Pick<MailCatcher, 'smtpHost' | 'smtpPort'>): Record<string, unknown> {
	// no login and no STARTTLS: a local catcher on the loopback
	return { user: '', password: '', host: catcher.smtpHost, port: catcher.smtpPort, secure: false, disableStartTls: true };
}

function maildevBin(): string {
	const bin = join(packageRoot(), 'node_modules', 'maildev', 'dist', 'bin', 'maildev.js');
	if (!existsSync(bin)) throw new Error(`the mail catcher (maildev) is not installed: run \`npm install\` (looked for ${bin})`);
	return bin;
}

const running = new Set<ChildProcess>();
let exitHooked = false;

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	try {
		process.kill(-(child.pid as number), signal);
	} catch {
		// already gone
	}
}

export async function startMailCatcher(opts: MailCatcherOptions = {}): Promise<MailCatcher> {
	const smtpPort = opts.smtpPort ?? (await freePort());
	const webPort = opts.webPort ?? (await freePort());
	const host = '127.0.0.1';
	const args = [maildevBin(), '--smtp', String(smtpPort), '--web', String(webPort), '--ip', host, '--web-ip', host];
	if (opts.mailDirectory) args.push('--mail-directory', opts.mailDirectory);
	const fd = opts.logFile ? openSync(opts.logFile, 'a') : 'ignore';
	const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', fd, fd], env: { ...process.env, NODE_OPTIONS: '' } });
	if (typeof fd === 'number') closeSync(fd);
	running.add(child);
	let exited = false;
	const gone = new Promise<void>((resolve) =>
		child.once('exit', () => {
			exited = true;
			running.delete(child);
			resolve();
		}),
	);
	if (!exitHooked) {
		exitHooked = true;
		process.on('exit', () => {
			for (const c of running) killGroup(c, 'SIGKILL');
		});
	}
	const webUrl = `http://${host}:${webPort}`;
	const deadline = Date.now() + 30_000;
	for (;;) {
		if (exited) throw new Error(`the mail catcher (maildev) exited while starting${opts.logFile ? `: see ${opts.logFile}` : ''}`);
		try {
			const res = await fetch(`${webUrl}/api/healthz`, { signal: AbortSignal.timeout(2000) });
			if (res.ok) break;
		} catch {
			// not listening yet
		}
		if (Date.now() > deadline) {
			killGroup(child, 'SIGKILL');
			throw new Error(`the mail catcher (maildev) did not answer on ${webUrl} within 30 s`);
		}
		await sleep(200);
	}
	return {
		smtpHost: host,
		smtpPort,
		webUrl: `${webUrl}/`,
		async messages() {
			const res = await fetch(`${webUrl}/api/email`);
			if (!res.ok) throw new Error(`mail catcher: GET /api/email answered ${res.status}`);
			return (await res.json()) as CaughtMail[];
		},
		async stop() {
			if (exited) return;
			killGroup(child, 'SIGTERM');
			const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
			await gone;
			clearTimeout(timer);
		},
	};
}
