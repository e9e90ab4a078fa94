/**
 * The sandbox clock: real time plus an offset that tests move forward
 * (token expiry, link expiry, card token expiry dates, T+1 settlement,
 * the 3-per-minute token window). Never moves backwards except on reset.
 */
export class Clock {
	private offsetMs = 0;
	/** Set by freeze(): the clock stops following real time (moves only by advance/set). */
	private frozenAtMs: number | null = null;

	nowMs(): number {
		return (this.frozenAtMs ?? Date.now()) + this.offsetMs;
	}

	/** Tests only: stop following real time, so that a test's own virtual clock and this one never drift apart. Undone by reset(). */
	freeze(): void {
		this.frozenAtMs ??= Date.now();
	}

	now(): Date {
		return new Date(this.nowMs());
	}

	advance(seconds: number): void {
		this.offsetMs += Math.round(seconds * 1000);
	}

	/** Sets the clock to an absolute instant (only forwards). */
	set(at: Date): void {
		const delta = at.getTime() - this.nowMs();
		if (delta > 0) this.offsetMs += delta;
	}

	reset(): void {
		this.offsetMs = 0;
		this.frozenAtMs = null;
	}

	get offsetSeconds(): number {
		return this.offsetMs / 1000;
	}
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `YYYY-MM-DD HH:MM:SS` in UTC (the record timestamp format). */
export function formatTimestamp(d: Date): string {
	return `${formatDate(d)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** `YYYY-MM-DD` in UTC. */
export function formatDate(d: Date): string {
	return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** `DDMMYYYY-HHMMSS` in UTC (the tail of an onusReference). */
export function referenceStamp(d: Date): string {
	return (
		`${pad(d.getUTCDate())}${pad(d.getUTCMonth() + 1)}${d.getUTCFullYear()}-` +
		`${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`
	);
}

/** Parses a strict `YYYY-MM-DD` (a real calendar date) to UTC midnight ms, else undefined. */
export function parseDate(s: string): number | undefined {
	const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
	if (!m) return undefined;
	const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
	const d = new Date(t);
	if (d.getUTCFullYear() !== Number(m[1]) || d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3])) {
		return undefined;
	}
	return t;
}

export const DAY_MS = 86_400_000;

/** Start (UTC midnight) of the next business day (Mon-Fri) after `ms`. */
export function nextBusinessDay(ms: number): number {
	let t = Math.floor(ms / DAY_MS) * DAY_MS + DAY_MS;
	while ([0, 6].includes(new Date(t).getUTCDay())) t += DAY_MS;
	return t;
}
