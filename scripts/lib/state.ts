/**
 * What `npm start` leaves in its folder for itself (next run) and for
 * `npm run customer`: addresses, the workflow ids, and the sandbox's webhook
 * verification key (a demo value generated on the first run, kept so the
 * credential and the sandbox agree across runs).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const DEFAULT_FOLDER = '.payonus-start';
export const DEFAULT_N8N_PORT = 5678;
export const DEFAULT_SANDBOX_PORT = 4010;
/** The mail catcher's web inbox and SMTP ports (MailDev's own defaults). */
export const DEFAULT_MAIL_PORT = 1080;
export const DEFAULT_SMTP_PORT = 1025;
export const STATE_FILE = 'start-state.json';

export interface StartState {
	verificationKey: string;
	sandboxUrl?: string;
	n8nUrl?: string;
	/** The one URL the sandbox notifies: the receiving workflow's PayOnUs Trigger. */
	webhookUrl?: string;
	/** The mail catcher's web inbox, and its SMTP address. */
	mailUrl?: string;
	smtp?: { host: string; port: number };
	/** The chat stand-in's incoming webhook. */
	chatUrl?: string;
	filesDir?: string;
	owner?: { email: string; password: string };
	credentialId?: string;
	workflows?: Record<string, { id: string; name: string }>;
	/** POST here (JSON name/email) to start the card-on-file example. */
	cardOnFileStartUrl?: string;
	pid?: number;
	readyAt?: string;
}

export function resolveFolder(folder?: string): string {
	return resolve(folder ?? process.env.PAYONUS_START_FOLDER ?? DEFAULT_FOLDER);
}

export function readState(folder: string): StartState | undefined {
	const file = join(folder, STATE_FILE);
	if (!existsSync(file)) return undefined;
	return JSON.parse(readFileSync(file, 'utf8')) as StartState;
}

export function writeState(folder: string, state: StartState): void {
	mkdirSync(folder, { recursive: true });
	writeFileSync(join(folder, STATE_FILE), JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
}

/** The state of an earlier run, or a new one with a fresh verification key. */
export function loadOrCreateState(folder: string): StartState {
	return readState(folder) ?? { verificationKey: `demo-key-${randomBytes(12).toString('hex')}` };
}
