/**
 * A realistic link in front of the sandbox: TLS with a certificate chain made
 * at start (a throw-away CA and a server certificate for 127.0.0.1 /
 * localhost), and an emulated network round-trip time with jitter.
 *
 *   client --TCP--> [link: delaying TCP proxy] --TCP--> [TLS server] --> sandbox handler
 *
 * The link is a plain TCP proxy, so it delays TLS records as they are, the
 * way a real network delays packets:
 *  - connection set-up: the first byte a client sends on a new connection is
 *    held one full RTT longer (the SYN / SYN-ACK exchange the loopback
 *    connect skipped), then travels like any other byte;
 *  - every chunk, in each direction, arrives rtt/2 (+/- jitter/2, uniform)
 *    after it was sent, never before an earlier chunk of the same direction
 *    (a TCP stream keeps its order).
 * A new TLS 1.3 connection therefore costs TCP 1 RTT + handshake 1 RTT before
 * the request's own round trip: a client without keep-alive pays about
 * 3 RTT per call, one with keep-alive about 1 RTT.
 *
 * The settings can change while connections are open (the bench moves one
 * running sandbox from 0 to 50 to 150 ms): `PUT /_sandbox/link`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { ok, type Router } from './router';
import type { Sandbox } from './runtime';
import { parse } from './validate';

export interface LinkSettings {
	/** Added round-trip time in ms (each direction gets half). */
	rttMs: number;
	/** Jitter in ms: each one-way delay varies uniformly within +/- jitterMs / 2. */
	jitterMs: number;
}

export interface TlsMaterial {
	/** Folder holding the files. */
	dir: string;
	/** The CA certificate (PEM) a client must trust: NODE_EXTRA_CA_CERTS=<caFile>. */
	caFile: string;
	ca: string;
	key: string;
	cert: string;
}

/**
 * A CA and a server certificate signed by it (ECDSA P-256, SAN 127.0.0.1,
 * ::1 and localhost), made with the openssl command line (offline). Written
 * to `dir` (default: a new temporary folder); reused when `dir` already
 * holds them.
 */
export function makeTlsMaterial(dir?: string): TlsMaterial {
	const folder = dir ?? mkdtempSync(join(tmpdir(), 'payonus-sandbox-tls-'));
	mkdirSync(folder, { recursive: true });
	const file = (name: string) => join(folder, name);
	const names = ['ca.pem', 'server-key.pem', 'server.pem'];
	if (!names.every((n) => existsSync(file(n)))) {
		const openssl = (args: string[]) => execFileSync('openssl', args, { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
		const ecKey = (out: string) => openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', out]);
		ecKey('ca-key.pem');
		openssl([
			'req', '-x509', '-new', '-key', 'ca-key.pem', '-sha256', '-days', '30',
			'-subj', '/CN=PayOnUs sandbox test CA',
			'-addext', 'basicConstraints=critical,CA:TRUE',
			'-addext', 'keyUsage=critical,keyCertSign,cRLSign',
			'-out', 'ca.pem',
		]);
		ecKey('server-key.pem');
		openssl(['req', '-new', '-key', 'server-key.pem', '-subj', '/CN=localhost', '-out', 'server.csr']);
		writeFileSync(
			file('server.ext'),
			[
				'basicConstraints=CA:FALSE',
				'keyUsage=critical,digitalSignature',
				'extendedKeyUsage=serverAuth',
				'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost',
				'',
			].join('\n'),
		);
		openssl([
			'x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca-key.pem', '-CAcreateserial',
			'-days', '30', '-sha256', '-extfile', 'server.ext', '-out', 'server.pem',
		]);
	}
	return {
		dir: folder,
		caFile: file('ca.pem'),
		ca: readFileSync(file('ca.pem'), 'utf8'),
		key: readFileSync(file('server-key.pem'), 'utf8'),
		cert: readFileSync(file('server.pem'), 'utf8'),
	};
}

/**
 * One direction of a connection: chunks delivered in order, each after its
 * own one-way delay; an end (FIN) or a reset (RST) travels behind the data
 * sent before it.
 */
class DelayedPipe {
	private lastDue = 0;
	private notBefore = 0;
	private queue: Array<{ due: number; fn: () => void }> = [];
	private timer: NodeJS.Timeout | undefined;
	private closing: 'end' | 'destroy' | undefined;

	constructor(
		private readonly to: Socket,
		private readonly delay: () => number,
	) {}

	/** Anything sent before `until` (performance.now() ms) leaves only then, and then takes its own delay. */
	holdUntil(until: number): void {
		this.notBefore = Math.max(this.notBefore, until);
	}

	private dueTime(now: number): number {
		const due = Math.max(Math.max(now, this.notBefore) + this.delay(), this.lastDue);
		this.lastDue = due;
		return due;
	}

	/** Runs `fn` at `due`, strictly after everything queued before it (one timer per pipe: timers of different lengths may fire out of order). */
	private later(now: number, due: number, fn: () => void): void {
		if (due <= now && this.queue.length === 0) {
			fn();
			return;
		}
		this.queue.push({ due, fn });
		if (!this.timer) this.arm();
	}

	private arm(): void {
		const head = this.queue[0];
		if (!head) {
			this.timer = undefined;
			return;
		}
		this.timer = setTimeout(() => this.drain(), Math.max(0, Math.ceil(head.due - performance.now())));
	}

	private drain(): void {
		const now = performance.now();
		let n = 0;
		while (n < this.queue.length && this.queue[n].due <= now + 0.5) n++;
		const ready = this.queue.splice(0, n);
		for (const item of ready) item.fn();
		this.arm();
	}

	push(chunk: Buffer): void {
		if (this.closing) return;
		const now = performance.now();
		this.later(now, this.dueTime(now), () => {
			if (!this.to.destroyed && this.to.writable) this.to.write(chunk);
		});
	}

	/** The sender finished (`end`) or broke the connection (`destroy`). */
	close(how: 'end' | 'destroy'): void {
		if (this.closing === 'destroy' || (this.closing === 'end' && how === 'end')) return;
		this.closing = how;
		const now = performance.now();
		this.later(now, this.dueTime(now), () => {
			if (this.to.destroyed) return;
			if (how === 'end') this.to.end();
			else this.to.resetAndDestroy();
		});
	}
}

export interface LinkHandle {
	port: number;
	settings: LinkSettings;
	/** TCP connections clients opened through the link since it started (a client with keep-alive opens few; one without, one per call). */
	connectionsOpened(): number;
	/** Changes the delays; open connections use the new ones from their next chunk. */
	set(next: Partial<LinkSettings>): LinkSettings;
	stop(): Promise<void>;
}

/** The delaying TCP proxy in front of `target`. */
export async function startLink(
	target: { host: string; port: number },
	listen: { host: string; port: number },
	initial: LinkSettings,
): Promise<LinkHandle> {
	const settings: LinkSettings = { ...initial };
	const oneWay = () => {
		const half = settings.rttMs / 2;
		const jitter = settings.jitterMs > 0 ? (Math.random() - 0.5) * settings.jitterMs : 0;
		return Math.max(0, half + jitter);
	};
	const sockets = new Set<Socket>();
	let opened = 0;
	const server: Server = createNetServer({ noDelay: true, allowHalfOpen: true }, (client) => {
		opened++;
		const upstream = connect({ host: target.host, port: target.port, noDelay: true, allowHalfOpen: true });
		sockets.add(client);
		sockets.add(upstream);
		const up = new DelayedPipe(upstream, oneWay);
		const down = new DelayedPipe(client, oneWay);
		// TCP's own handshake: nothing the client sends arrives before one RTT has passed.
		up.holdUntil(performance.now() + settings.rttMs);
		client.on('data', (chunk: Buffer) => up.push(chunk));
		upstream.on('data', (chunk: Buffer) => down.push(chunk));
		client.on('end', () => up.close('end'));
		upstream.on('end', () => down.close('end'));
		// A reset or a close without end travels like the data before it.
		client.on('error', () => up.close('destroy'));
		upstream.on('error', () => down.close('destroy'));
		client.on('close', (hadError) => {
			sockets.delete(client);
			up.close(hadError ? 'destroy' : 'end');
		});
		upstream.on('close', (hadError) => {
			sockets.delete(upstream);
			down.close(hadError ? 'destroy' : 'end');
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(listen.port, listen.host, () => resolve());
	});
	return {
		port: (server.address() as AddressInfo).port,
		settings,
		connectionsOpened: () => opened,
		set(next) {
			if (next.rttMs !== undefined) settings.rttMs = next.rttMs;
			if (next.jitterMs !== undefined) settings.jitterMs = next.jitterMs;
			return { ...settings };
		},
		stop: async () => {
			for (const s of sockets) s.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

// ---------------------------------------------------------------------------
// control: GET / PUT /_sandbox/link

const links = new WeakMap<Sandbox, LinkHandle>();

export function attachLink(sb: Sandbox, link: LinkHandle): void {
	links.set(sb, link);
}

const linkSchema = z.object({
	rttMs: z.number().min(0).max(10_000).optional(),
	jitterMs: z.number().min(0).max(10_000).optional(),
});

export function registerLink(router: Router): void {
	router.add(
		'GET',
		'/_sandbox/link',
		(ctx) => {
			const link = links.get(ctx.sb);
			return ok(link ? { ...link.settings, connectionsOpened: link.connectionsOpened() } : null);
		},
		{ auth: false },
	);
	router.add(
		'PUT',
		'/_sandbox/link',
		(ctx) => {
			const link = links.get(ctx.sb);
			if (!link) return ok(null, 'No link: the sandbox was started without --rtt-ms / --jitter-ms', 409);
			return ok(link.set(parse(linkSchema, ctx.body)));
		},
		{ auth: false },
	);
}
