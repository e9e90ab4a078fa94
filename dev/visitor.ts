import { request as httpRequest, Agent } from 'node:http';

/**
 * One visitor of a page served by a local n8n: an HTTP client whose
 * connections come from a loopback address of its own (127.x.y.z; Linux
 * answers the whole 127/8), so n8n's req.ip tells visitors apart as it would
 * real buyers. Used by the Payment Page's bounds e2e test and the page-abuse
 * drill. Every request carries a made-up X-Forwarded-For, as a spoofer's would.
 */

export interface VisitorAnswer {
	status: number;
	body: string;
	location?: string;
	retryAfter?: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

export async function visit(address: string, url: string, form?: Record<string, string>): Promise<VisitorAnswer> {
	const u = new URL(url);
	const body = form ? new URLSearchParams(form).toString() : undefined;
	return await new Promise((resolve, reject) => {
		const req = httpRequest(
			{
				host: u.hostname,
				port: u.port,
				path: `${u.pathname}${u.search}`,
				method: form ? 'POST' : 'GET',
				localAddress: address,
				agent,
				headers: {
					'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250)}`,
					...(body ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } : {}),
				},
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () =>
					resolve({
						status: res.statusCode ?? 0,
						body: Buffer.concat(chunks).toString('utf8'),
						location: res.headers.location,
						retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : undefined,
					}),
				);
				res.on('error', reject);
			},
		);
		req.on('error', reject);
		req.end(body);
	});
}

/** Closes the visitors' idle connections (at the end of a test or drill). */
export function closeVisitors(): void {
	agent.destroy();
}
