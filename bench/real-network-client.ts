/**
 * The baselines of the real-network bench (bench/floor.ts: n8n's helper
 * alone, the floor; undici keep-alive, the limit) in their own process,
 * forked by bench/real-network.bench.ts with the Node that runs n8n and
 * NODE_EXTRA_CA_CERTS set, so TLS is verified exactly as n8n verifies it, and
 * so the client's CPU is not the sandbox's.
 * Not a bench itself (bench/run.ts only loads *.bench.js).
 *
 * Messages in: { id, kind, baseUrl, token, concurrency, calls: [{ method, path, body? }] }, or 'close'.
 * Messages out: { ready: true } once, then { id, ms } or { id, error }.
 */
import { FloorDriver, type Job } from './floor';

const installDir = process.env.PAYONUS_N8N_INSTALL_DIR;
if (!installDir) throw new Error('PAYONUS_N8N_INSTALL_DIR is not set');
const driver = new FloorDriver(installDir);

process.on('message', (job: (Job & { id: number }) | 'close') => {
	if (job === 'close') {
		void driver.close().then(() => process.exit(0));
		return;
	}
	driver.run(job).then(
		(ms) => process.send?.({ id: job.id, ms }),
		(error: unknown) => process.send?.({ id: job.id, error: error instanceof Error ? error.message : String(error) }),
	);
});
process.send?.({ ready: true });
