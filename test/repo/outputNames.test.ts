import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PayOnUsTrigger } from '../../nodes/PayOnUsTrigger/PayOnUsTrigger.node';
import { emit } from '../../nodes/PayOnUsTrigger/emit';
import { repositoryPaths, ROOT } from './repoFiles';

/**
 * Names true (issue 32): the PayOnUs Trigger's outputs are named, in docs,
 * log lines, messages and comments, as the node names them on the canvas
 * (read from the node's description here). The labels the outputs had before
 * appear nowhere but in CHANGELOG.md (history).
 */

const names = new PayOnUsTrigger().description.outputNames as string[];

/** The outputs' former labels, as text would name them (case as on the canvas). */
const RETIRED = [/\bVerified\b/, /\bNot Confirmed\b/];

/** Text files a builder or a newcomer reads: code, docs, examples, tooling. */
function textFiles(): string[] {
	const top = ['README.md', 'CONTRIBUTING.md', 'docs/', 'nodes/', 'credentials/', 'examples/', 'dev/', 'scripts/', 'bench/', 'sandbox/', 'test/'];
	return top
		.flatMap((t) => (t.endsWith('/') ? repositoryPaths({ under: t.slice(0, -1) }) : [t]))
		.filter((p) => /\.(md|ts|js|mjs|cjs|json)$/.test(p))
		.filter((p) => p !== 'test/repo/outputNames.test.ts');
}

describe("the PayOnUs Trigger's outputs are named as the node names them", () => {
	it('the node has its two outputs, named', () => {
		expect(names).toEqual(['Confirmed', 'Unconfirmed']);
	});

	it('no file names an output by a former label', () => {
		const files = textFiles();
		expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/triggers.md', 'nodes/PayOnUsTrigger/emit.ts']));
		const found: string[] = [];
		for (const f of files) {
			readFileSync(join(ROOT, f), 'utf8')
				.split('\n')
				.forEach((line, i) => {
					for (const r of RETIRED) if (r.test(line)) found.push(`${f}:${i + 1}: ${line.trim().slice(0, 120)}`);
				});
		}
		expect(found).toEqual([]);
	});

	it('the log line of an event the service does not confirm names both outputs by their names', () => {
		const lines: string[] = [];
		const log = { warn: (m: string) => lines.push(m), info: (m: string) => lines.push(m) };
		const notification = { event: 'PAYOUT', body: { onusReference: 'TRNF-1' }, receivedAt: new Date(0) } as never;
		emit({ kind: 'notConfirmed', item: {}, reason: 'no record' }, notification, false, log);
		expect(lines).toHaveLength(1);
		expect(lines[0]).toContain(`the ${names[1]} output`);
		expect(lines[0]).toContain(`not to ${names[0]}`);
	});

	it("the trigger's docs and the README name both outputs", () => {
		for (const page of ['README.md', 'docs/triggers.md', 'docs/nodes/payonus-trigger.md']) {
			const text = readFileSync(join(ROOT, page), 'utf8');
			for (const name of names) expect({ page, name, named: text.includes(`**${name}**`) }).toEqual({ page, name, named: true });
		}
	});
});
