/**
 * `npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--seed sandbox/seed.json] [--profile a,b]
 *                     [--tls [--tls-dir DIR]] [--rtt-ms 150] [--jitter-ms 20]`
 * Starts the sandbox and prints the base URL, the control prefix and the
 * client id/secret pairs it accepts, and its card encryption public key (a
 * Payment Page's Card Encryption Public Key). Ctrl-C stops it.
 *
 * --tls serves HTTPS with a CA made at start (its PEM path is printed: give
 * it to clients as NODE_EXTRA_CA_CERTS); --rtt-ms / --jitter-ms add a
 * realistic link (see sandbox/link.ts). --json prints one line
 * `{"url":...,"caFile":...}` instead of the banner (for scripts).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startSandbox, type SeedConfig } from './server';
import { parseProfiles, PROFILE_NAMES } from './profiles';
import { whenParentGone } from './parentWatch';
import { sandboxKeys } from './cards';

function arg(name: string): string | undefined {
	const argv = process.argv.slice(2);
	const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
	if (i === -1) return undefined;
	const a = argv[i];
	return a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[i + 1];
}

async function main() {
	if (process.argv.includes('--help') || process.argv.includes('-h')) {
		console.log(
			'usage: npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--seed path/to/seed.json] [--profile a,b] [--tls [--tls-dir DIR]] [--rtt-ms 150] [--jitter-ms 20] [--json]',
		);
		console.log(`profiles (also env PAYONUS_SANDBOX_PROFILE=a,b): ${PROFILE_NAMES.join(', ')}`);
		return;
	}
	const port = Number(arg('port') ?? process.env.SANDBOX_PORT ?? 4010);
	if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0-65535, got ${arg('port')}`);
	const seedPath = arg('seed');
	const seed = seedPath ? (JSON.parse(readFileSync(resolve(seedPath), 'utf8')) as SeedConfig) : undefined;
	const profiles = parseProfiles(arg('profile') ?? process.env.PAYONUS_SANDBOX_PROFILE);
	const ms = (name: string): number | undefined => {
		const v = arg(name);
		if (v === undefined) return undefined;
		const n = Number(v);
		if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number of ms >= 0, got ${v}`);
		return n;
	};
	const tls = process.argv.includes('--tls');
	const requestLogLimit = arg('request-log-limit');
	const sb = await startSandbox({
		port,
		host: arg('host') ?? '127.0.0.1',
		seed,
		profiles,
		tls,
		tlsDir: arg('tls-dir'),
		rttMs: ms('rtt-ms'),
		jitterMs: ms('jitter-ms'),
		...(requestLogLimit ? { config: { requestLogLimit: Number(requestLogLimit) } } : {}),
	});
	let stopping: Promise<void> | undefined;
	// once, whichever comes first: a signal or the parent gone (Ctrl-C can bring both)
	const stop = () => {
		stopping ??= sb.stop().then(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
	whenParentGone(stop); // npm's shell dies of a SIGTERM without passing it on
	if (process.argv.includes('--json')) {
		console.log(JSON.stringify({ url: sb.url, port: sb.port, caFile: sb.tls?.caFile ?? null, link: sb.link?.settings ?? null }));
		return;
	}
	const s = sb.state;
	console.log(`PayOnUs sandbox listening on ${sb.url}`);
	if (sb.tls) console.log(`  TLS CA (PEM):   ${sb.tls.caFile}  (clients: NODE_EXTRA_CA_CERTS=${sb.tls.caFile})`);
	if (sb.link) console.log(`  link:           +${sb.link.settings.rttMs} ms round trip, jitter ${sb.link.settings.jitterMs} ms (change: PUT ${sb.url}/_sandbox/link)`);
	console.log(`  API base URL:   ${sb.url}  (paths under /api/v1)`);
	console.log(`  control API:    ${sb.url}/_sandbox  (reset, webhooks, clock, faults, ledger, requests, deliveries, stats)`);
	console.log(`  profiles:       ${profiles.length ? profiles.join(', ') : 'default (none)'}`);
	console.log(`  seed:           ${seedPath ?? 'sandbox/seed.json (built in)'}`);
	console.log('  API clients (apiClientId / apiClientSecret -> merchant):');
	for (const c of s.clients.values()) console.log(`    ${c.clientId} / ${c.clientSecret} -> ${c.merchantId}`);
	console.log('  businesses:');
	for (const b of s.businesses.values()) {
		const wallets = [...s.wallets.values()].filter((w) => w.entityId === b.id).map((w) => w.currency);
		console.log(`    ${b.id} "${b.name}" (${b.merchantId}) wallets ${wallets.join(', ')}${b.tokenizationEnabled ? '' : '; tokenization disabled'}`);
	}
	// what a Payment Page needs to offer card (its Card Encryption Public Key); a new pair per process
	console.log(`  card encryption public key (also GET ${sb.url}/_sandbox/public-key):`);
	console.log(sandboxKeys().publicPem.trim());
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
