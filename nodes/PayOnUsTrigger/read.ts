import type { IDataObject } from 'n8n-workflow';
import { refusal, type Answer } from './emit';
import { classify, type Notification } from './notification';

/**
 * Step 1 of receive.ts (read): the raw body, parsed, and the event it is.
 *
 * Malformed, empty, non-object or larger-than-256-KiB bodies, and unknown
 * events, get 400 and start nothing. (With Content-Type application/json,
 * n8n itself parses the body first and answers 422 to malformed JSON before
 * this node runs.) Other methods than POST get n8n's 404.
 */

/** Largest body accepted (the service's notifications are a few hundred bytes). */
export const MAX_BODY_BYTES = 256 * 1024;

export interface Rejection {
	status: number;
	message: string;
}

export type ParsedBody = { ok: true; body: IDataObject } | { ok: false; rejection: Rejection };

const TOO_LARGE: ParsedBody = { ok: false, rejection: { status: 400, message: `Body larger than ${MAX_BODY_BYTES} bytes` } };

/**
 * Reads the notification body. The service sends JSON as `text/plain`;
 * `application/json` is accepted too. The raw bytes are preferred (n8n keeps
 * them on the request); an already parsed object or string is the fallback.
 */
export function parseBody(raw: Buffer | string | undefined, parsed: unknown, declaredLength?: number): ParsedBody {
	if (declaredLength !== undefined && declaredLength > MAX_BODY_BYTES) {
		return TOO_LARGE;
	}
	let text: string | undefined;
	if (Buffer.isBuffer(raw)) {
		if (raw.length > MAX_BODY_BYTES) {
			return TOO_LARGE;
		}
		text = raw.toString('utf8');
	} else if (typeof raw === 'string') {
		text = raw;
	} else if (typeof parsed === 'string') {
		text = parsed;
	}
	if (text !== undefined) {
		if (Buffer.byteLength(text, 'utf8') > MAX_BODY_BYTES) {
			return TOO_LARGE;
		}
		if (text.trim().length === 0) {
			return { ok: false, rejection: { status: 400, message: 'Empty body' } };
		}
		let value: unknown;
		try {
			value = JSON.parse(text);
		} catch {
			return { ok: false, rejection: { status: 400, message: 'Body is not valid JSON' } };
		}
		return asObject(value);
	}
	if (parsed !== undefined && parsed !== null) {
		if (Buffer.byteLength(JSON.stringify(parsed), 'utf8') > MAX_BODY_BYTES) {
			return TOO_LARGE;
		}
		return asObject(parsed);
	}
	return { ok: false, rejection: { status: 400, message: 'Empty body' } };
}

function asObject(value: unknown): ParsedBody {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return { ok: false, rejection: { status: 400, message: 'Body is not a JSON object' } };
	}
	if (Object.keys(value).length === 0) {
		return { ok: false, rejection: { status: 400, message: 'Body is an empty object' } };
	}
	return { ok: true, body: value as IDataObject };
}

/** What this step needs of n8n's request: its headers and raw bytes (or a way to read them). */
export interface RawRequest {
	headers: { [name: string]: string | string[] | undefined };
	rawBody?: Buffer;
	readRawBody?: () => Promise<void>;
}

export type Read = { notification: Notification } | { refused: Answer };

/**
 * Reads one notification: raw bytes first (the service sends JSON as
 * text/plain), n8n's parsed body (`bodyData`) as the fallback.
 */
export async function readNotification(request: RawRequest, bodyData: () => unknown, receivedAt: Date): Promise<Read> {
	if (!Buffer.isBuffer(request.rawBody) && typeof request.readRawBody === 'function') {
		try {
			await request.readRawBody();
		} catch {
			return { refused: refusal(400, 'Body could not be read') };
		}
	}
	const declared = Number(request.headers['content-length']);
	const parsed = parseBody(request.rawBody, bodyData(), Number.isFinite(declared) ? declared : undefined);
	if (!parsed.ok) return { refused: refusal(parsed.rejection.status, parsed.rejection.message) };
	const event = classify(parsed.body);
	if (event === undefined) return { refused: refusal(400, 'Not a PayOnUs notification') };
	return { notification: { event, body: parsed.body, receivedAt } };
}
