/**
 * Waiting in the harness, the e2e tests and the benches: `until` probes for an
 * outcome with a generous give-up (no timing is asserted through it); `sleep`
 * only leaves room for something that must NOT happen (a duplicate execution,
 * say) before a negative check, or paces a drill.
 */
export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Probes every 300 ms until it answers something other than undefined; throws naming `what` after `timeoutMs`. */
export async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const found = await probe();
		if (found !== undefined) return found;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(300);
	}
}
