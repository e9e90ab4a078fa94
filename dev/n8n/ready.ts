/** Waiting until n8n is usable: owner set up (or logged in) and an API key; workers and webhook processes ready. */
import { fetch } from 'undici';
import { AUTH_COOKIE, N8nClient } from './client';
import { sleep } from '../wait';
import { tail, type Proc } from './processes';
import { OWNER, type StartOptions } from './types';

function cookieFrom(res: { headers: { getSetCookie(): string[] } }): string | undefined {
	for (const header of res.headers.getSetCookie()) {
		const match = new RegExp(`^${AUTH_COOKIE}=([^;]+)`).exec(header);
		if (match && match[1]) return match[1];
	}
	return undefined;
}

export async function waitForWorker(worker: Proc, log: string, deadline: number): Promise<void> {
	await waitForLogLine(worker, log, /n8n worker is now ready/, deadline);
}

export async function waitForLogLine(proc: Proc, log: string, ready: RegExp, deadline: number): Promise<void> {
	while (Date.now() < deadline) {
		if (proc.hasExited()) throw new Error(`${proc.name} exited early:\n${tail(log)}`);
		if (ready.test(tail(log, 400))) return;
		await sleep(250);
	}
	throw new Error(`${proc.name} not ready in time:\n${tail(log)}`);
}

/**
 * /healthz answers before the migrations have finished, and until then every
 * path answers 200 "n8n is starting up"; so retry the owner setup (or the login)
 * until the auth cookie arrives, then create the API key.
 */
export async function waitUntilReady(
	baseUrl: string,
	main: Proc,
	opts: StartOptions,
	deadline: number,
): Promise<{ cookie: string; apiKey: string }> {
	let lastProblem = 'no answer yet';
	let cookie: string | undefined;
	const owner = opts.ownerAccount ?? OWNER;
	// persistent mode: the owner may exist from an earlier start; then log in
	let login = opts.owner === false;
	while (!cookie) {
		if (main.hasExited()) throw new Error(`n8n exited with code ${String(await main.exited)}`);
		if (Date.now() > deadline) throw new Error(`not ready in time (${lastProblem})`);
		try {
			const body = login ? { emailOrLdapLoginId: owner.email, password: owner.password } : owner;
			const res = await fetch(`${baseUrl}/rest/${login ? 'login' : 'owner/setup'}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', accept: 'application/json' },
				body: JSON.stringify(body),
			});
			const text = await res.text();
			cookie = cookieFrom(res);
			if (!cookie) lastProblem = `${res.status} ${text.slice(0, 200)}`;
			if (!cookie && !login && opts.userFolder !== undefined && res.status === 400 && /already setup/i.test(text)) {
				login = true;
				continue;
			}
			if (!cookie && login && opts.userFolder !== undefined && res.status === 401) {
				throw new Error(
					`the owner ${owner.email} of ${opts.userFolder} cannot log in with the expected password (changed in the editor?); use another folder or restore the password`,
				);
			}
		} catch (error) {
			lastProblem = (error as Error).message;
		}
		if (!cookie) await sleep(250);
	}
	const client = new N8nClient({ baseUrl, apiKey: opts.apiKey ?? '', cookie });
	let apiKey = opts.apiKey;
	if (!apiKey && opts.userFolder !== undefined) {
		// persistent mode: replace the key of the previous start instead of piling them up
		const keys = await client.listApiKeys();
		for (const key of keys.filter((k) => k.label === 'payonus-start')) {
			await client.rest('DELETE', `/api-keys/${key.id}`);
		}
	}
	if (!apiKey) {
		const scopes = await client.rest<string[]>('GET', '/api-keys/scopes');
		const created = await client.rest<{ rawApiKey: string }>('POST', '/api-keys', {
			label: opts.userFolder !== undefined ? 'payonus-start' : 'payonus-e2e',
			scopes,
			expiresAt: null,
		});
		apiKey = created.rawApiKey;
	}
	// the public API answers with this key
	await new N8nClient({ baseUrl, apiKey, cookie }).api('GET', '/workflows?limit=1');
	return { cookie, apiKey };
}
