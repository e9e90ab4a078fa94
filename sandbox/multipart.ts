/** Just enough multipart/form-data and CSV parsing for bulk transfers. */
import { ApiError } from './errors';

export interface Part {
	name: string;
	filename?: string;
	contentType?: string;
	data: Buffer;
}

export function parseMultipart(body: Buffer, contentType: string): Map<string, Part> {
	const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
	if (!contentType.includes('multipart/form-data') || !m) {
		throw new ApiError(400, 'Expected multipart/form-data with a boundary', ['Content-Type: must be multipart/form-data']);
	}
	const boundary = Buffer.from(`--${(m[1] ?? m[2]).trim()}`);
	const parts = new Map<string, Part>();
	let pos = body.indexOf(boundary);
	while (pos !== -1) {
		const start = pos + boundary.length;
		if (body.subarray(start, start + 2).toString() === '--') break;
		const headerEnd = body.indexOf('\r\n\r\n', start);
		if (headerEnd === -1) break;
		const next = body.indexOf(boundary, headerEnd);
		if (next === -1) break;
		const headers = body.subarray(start, headerEnd).toString('utf8');
		let data = body.subarray(headerEnd + 4, next);
		if (data.subarray(-2).toString() === '\r\n') data = data.subarray(0, -2);
		const name = /name="([^"]*)"/i.exec(headers)?.[1];
		if (name !== undefined) {
			parts.set(name, {
				name,
				filename: /filename="([^"]*)"/i.exec(headers)?.[1],
				contentType: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1],
				data,
			});
		}
		pos = next;
	}
	return parts;
}

/** RFC 4180-ish CSV: commas, double quotes, CRLF or LF. Returns rows of cells. */
export function parseCsv(text: string): string[][] {
	const rows: string[][] = [];
	let row: string[] = [];
	let cell = '';
	let quoted = false;
	const src = text.replace(/^\uFEFF/, '');
	for (let i = 0; i < src.length; i++) {
		const c = src[i];
		if (quoted) {
			if (c === '"' && src[i + 1] === '"') {
				cell += '"';
				i++;
			} else if (c === '"') quoted = false;
			else cell += c;
		} else if (c === '"') quoted = true;
		else if (c === ',') {
			row.push(cell);
			cell = '';
		} else if (c === '\n' || c === '\r') {
			if (c === '\r' && src[i + 1] === '\n') i++;
			row.push(cell);
			rows.push(row);
			row = [];
			cell = '';
		} else cell += c;
	}
	if (cell !== '' || row.length > 0) {
		row.push(cell);
		rows.push(row);
	}
	return rows.filter((r) => r.some((c) => c.trim() !== ''));
}
