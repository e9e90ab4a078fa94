/**
 * `npm run bench -- safety-edges [--areas=a,b]`
 *
 * Issue 22's drill: every safety net (Dry Run, duplicate suppression,
 * confirmation with the service, the payment page's once-per-payment start,
 * reconciliation, limits, the credential's check, the token guard) tried at
 * its edges the way users wire them: values from expressions, per item, time
 * passing, restarts, volume, two items at once, a credential being edited.
 * Real n8n where the edge is n8n's. One table: case, expected, observed,
 * money moved, duplicate starts, false successes, blind windows. Goal: every
 * count 0 and every row passing.
 *
 * Each area is a file in bench/safety-edges/ exporting `area`.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SafetyArea, SafetyRow } from './safety-edges/types';

export const description =
	'safety edges: each safety net at its edges (expressions, per item, time, restarts, volume, concurrency, credential edits); money moved, duplicate starts, false successes, blind windows (goal 0)';

function arg(args: string[], name: string): string | undefined {
	return args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
}

export async function loadAreas(): Promise<SafetyArea[]> {
	const dir = join(__dirname, 'safety-edges');
	const files = readdirSync(dir).filter((f) => f.endsWith('.js') && f !== 'types.js').sort();
	const areas: SafetyArea[] = [];
	for (const file of files) {
		const mod = (await import(join(dir, file))) as { area?: SafetyArea };
		if (mod.area) areas.push(mod.area);
	}
	return areas;
}

function table(rows: SafetyRow[]): string {
	const head = ['net', 'edge', 'expected', 'observed', 'money moved', 'duplicate starts', 'false successes', 'blind windows', 'pass'];
	const lines = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
	for (const r of rows) {
		const cells = [r.net, r.edge, r.expected, r.observed, r.moneyMoved, r.duplicateStarts, r.falseSuccesses, r.blindWindows, r.pass ? 'yes' : 'NO'];
		lines.push(`| ${cells.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`);
	}
	return lines.join('\n');
}

export async function run(args: string[]): Promise<Record<string, unknown>> {
	const only = arg(args, 'areas')?.split(',');
	const areas = (await loadAreas()).filter((a) => !only || only.includes(a.name));
	const rows: SafetyRow[] = [];
	const failures: string[] = [];
	for (const area of areas) {
		console.log(`--- ${area.name}`);
		try {
			rows.push(...(await area.run(args)));
		} catch (error) {
			failures.push(`${area.name}: ${(error as Error).message}`);
		}
	}
	console.log(table(rows));
	const totals = {
		rows: rows.length,
		failing: rows.filter((r) => !r.pass).length,
		moneyMoved: rows.reduce((s, r) => s + r.moneyMoved, 0),
		duplicateStarts: rows.reduce((s, r) => s + r.duplicateStarts, 0),
		falseSuccesses: rows.reduce((s, r) => s + r.falseSuccesses, 0),
		blindWindows: rows.reduce((s, r) => s + r.blindWindows, 0),
		areaErrors: failures,
	};
	console.log(JSON.stringify(totals));
	if (totals.failing > 0 || failures.length > 0) process.exitCode = 1;
	return { rows, totals };
}
