import type { MultipartFile } from '../clientInterface';

function randomBoundary(): string {
	let s = '';
	for (let i = 0; i < 24; i++) s += Math.floor(Math.random() * 36).toString(36);
	return `----payonus${s}`;
}

function quoteHeaderValue(v: string): string {
	return v.replace(/["\r\n\\]/g, '_');
}

/** multipart/form-data body as one Buffer (no third-party form library). */
export function buildMultipart(form: { fields: Record<string, string>; files: MultipartFile[] }): {
	body: Buffer;
	contentType: string;
} {
	const boundary = randomBoundary();
	const chunks: Buffer[] = [];
	for (const [name, value] of Object.entries(form.fields)) {
		chunks.push(
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="${quoteHeaderValue(name)}"\r\n\r\n${value}\r\n`,
				'utf8',
			),
		);
	}
	for (const f of form.files) {
		chunks.push(
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="${quoteHeaderValue(f.field)}"; filename="${quoteHeaderValue(f.filename)}"\r\nContent-Type: ${f.contentType}\r\n\r\n`,
				'utf8',
			),
			f.data,
			Buffer.from('\r\n', 'utf8'),
		);
	}
	chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
	return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
