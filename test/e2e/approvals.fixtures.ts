/**
 * What the approvals e2e files (approvals.test.ts, approvals.agent.test.ts)
 * share: following an approval e-mail's link the way a person's browser does.
 */
import { sleep } from '../../dev/wait';

/** A desktop browser's user agent: n8n's approval pages answer bots differently. */
export const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/**
 * Follows an approval link. n8n answers 409 while the execution is not yet
 * stored as waiting (seen when a link is followed the instant the e-mail
 * lands, on a loaded machine): a person clicking seconds later gets the page,
 * so 409 is retried for up to 60 s; any other answer is returned as it is.
 */
export async function followLink(url: string): Promise<{ status: number; body: string }> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const res = await fetch(url, { headers: { 'user-agent': BROWSER } });
		const body = await res.text();
		if (res.status !== 409 || Date.now() > deadline) return { status: res.status, body };
		await sleep(500);
	}
}
