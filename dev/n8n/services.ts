/** Free ports, and the Postgres and Redis a multi-process n8n runs on (trust auth on 127.0.0.1). */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';

export const PG_HOST = '127.0.0.1';
export const PG_PORT = 5432;
export const REDIS_HOST = '127.0.0.1';
export const REDIS_PORT = 6379;

export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

let pgUserCache: string | undefined;

/** The Postgres role to use: PAYONUS_PG_USER, else `postgres`, else `root` (trust auth on 127.0.0.1). */
export function pgUser(): string {
	if (pgUserCache) return pgUserCache;
	const candidates = process.env.PAYONUS_PG_USER ? [process.env.PAYONUS_PG_USER] : ['postgres', 'root'];
	for (const user of candidates) {
		try {
			execFileSync('psql', ['-h', PG_HOST, '-p', String(PG_PORT), '-U', user, '-d', 'postgres', '-Atc', 'select 1'], {
				stdio: 'pipe',
				env: { ...process.env, PGCONNECT_TIMEOUT: '5' },
			});
			pgUserCache = user;
			return user;
		} catch {
			// try the next one
		}
	}
	throw new Error(`Postgres is not reachable on ${PG_HOST}:${PG_PORT} as ${candidates.join(' or ')} (trust auth expected)`);
}

/** Runs `sql` in `database` (unaligned, tuples only: fields separated by `|`); returns what psql printed. */
export function psql(sql: string, database = 'postgres'): string {
	return execFileSync('psql', ['-h', PG_HOST, '-p', String(PG_PORT), '-U', pgUser(), '-d', database, '-Atc', sql], {
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env, PGCONNECT_TIMEOUT: '5' },
	});
}

export function dropDatabase(name: string): void {
	try {
		psql(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
	} catch {
		// best effort (also runs from exit handlers)
	}
}

export function clearRedisPrefix(prefix: string): void {
	try {
		const keys = execFileSync('redis-cli', ['-h', REDIS_HOST, '-p', String(REDIS_PORT), '--scan', '--pattern', `${prefix}:*`], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		})
			.split('\n')
			.filter(Boolean);
		for (let i = 0; i < keys.length; i += 200) {
			execFileSync('redis-cli', ['-h', REDIS_HOST, '-p', String(REDIS_PORT), 'DEL', ...keys.slice(i, i + 200)], { stdio: 'ignore' });
		}
	} catch {
		// best effort
	}
}

export function checkRedis(): void {
	try {
		const out = execFileSync('redis-cli', ['-h', REDIS_HOST, '-p', String(REDIS_PORT), 'ping'], { encoding: 'utf8', stdio: 'pipe' });
		if (!out.includes('PONG')) throw new Error(out);
	} catch (error) {
		throw new Error(`Redis is not reachable on ${REDIS_HOST}:${REDIS_PORT}: ${(error as Error).message}`);
	}
}
