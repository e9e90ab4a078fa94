/** Step 1 of the PayOnUs Trigger (read.ts): raw body, parsed, event recognised. */
import { MAX_BODY_BYTES, readNotification, type RawRequest } from '../../../nodes/PayOnUsTrigger/read';

const at = new Date('2026-01-15T10:00:00Z');
const collection = { type: 'COLLECTION', accountNumber: '0123456789', onusReference: 'ONUS-1', paymentStatus: 'SUCCESSFUL' };

function request(raw: string | undefined, headers: RawRequest['headers'] = {}): RawRequest {
	return { headers, rawBody: raw === undefined ? undefined : Buffer.from(raw, 'utf8') };
}
const noParsedBody = () => undefined;

describe('readNotification', () => {
	it('reads the raw bytes (JSON sent as text/plain) into an event, its body and when it came in', async () => {
		expect(await readNotification(request(JSON.stringify(collection)), noParsedBody, at)).toEqual({
			notification: { event: 'COLLECTION', body: collection, receivedAt: at },
		});
	});

	it('reads the raw bytes first when n8n has not yet, and only then asks for its parsed body', async () => {
		const calls: string[] = [];
		const req: RawRequest = {
			headers: {},
			readRawBody: async () => {
				calls.push('readRawBody');
				req.rawBody = Buffer.from(JSON.stringify({ event: 'card_tokenization_link.completed', cardTokenizationLinkId: 'ctl_1' }));
			},
		};
		const read = await readNotification(req, () => (calls.push('bodyData'), undefined), at);
		expect(calls).toEqual(['readRawBody', 'bodyData']);
		expect(read).toMatchObject({ notification: { event: 'card_tokenization_link.completed' } });
	});

	it('falls back on the body n8n parsed (application/json)', async () => {
		expect(await readNotification(request(undefined), () => ({ ...collection, type: 'PAYOUT' }), at)).toMatchObject({
			notification: { event: 'PAYOUT' },
		});
	});

	it.each([
		['the raw body cannot be read', { headers: {}, readRawBody: async () => Promise.reject(new Error('aborted')) }, 'Body could not be read'],
		['the declared length is too large', request('{}', { 'content-length': String(MAX_BODY_BYTES + 1) }), `Body larger than ${MAX_BODY_BYTES} bytes`],
		['the body is not JSON', request('{nope'), 'Body is not valid JSON'],
		['the body is empty', request('  '), 'Empty body'],
		['the body is a list', request('[1]'), 'Body is not a JSON object'],
		['the event is unknown', request(JSON.stringify({ type: 'INVOICE' })), 'Not a PayOnUs notification'],
	] as Array<[string, RawRequest, string]>)('refuses with 400 when %s', async (_, req, message) => {
		expect(await readNotification(req, noParsedBody, at)).toEqual({
			refused: { status: 400, body: { received: false, message } },
		});
	});
});
