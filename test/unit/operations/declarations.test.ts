import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod';
import { resources } from '../../../nodes/PayOnUs/resources';
import * as cardTokenization from '../../../nodes/PayOnUs/resources/cardTokenization';
import * as payin from '../../../nodes/PayOnUs/resources/payin';
import * as payout from '../../../nodes/PayOnUs/resources/payout';
import * as reconciliation from '../../../nodes/PayOnUs/resources/reconciliation';
import * as wallet from '../../../nodes/PayOnUs/resources/wallet';
import type { NodeOperation } from '../../../nodes/PayOnUs/resources/types';

/**
 * Adding an operation: the checklist this test enforces, for EVERY operation.
 *
 *  1. One file, nodes/PayOnUs/resources/<resource>/<value>.ts, exporting
 *     `export const <value>: PayOnUsOperation<typeof schema>`: the export
 *     name is the operation's value (e.g. `createTransfer`).
 *  2. One line in nodes/PayOnUs/resources/<resource>/index.ts:
 *     `export { <value> } from './<value>';` (alphabetical). Nothing else
 *     lists operations; the resource is declared once, in resources/index.ts.
 *  3. Properties and schema agree: every top-level property (notices
 *     aside) is a key of the zod schema, and every schema key is a property;
 *     the options of a collection (Additional Fields, Filters) are the keys
 *     of the schema's object under the collection's name.
 *  4. Traits declared: `effect` ('read': only GET calls, run concurrently;
 *     'write': anything else that moves no money; 'movesMoney': Dry Run and
 *     AI-tool limits), `money` ({ direction: 'in' | 'out' }) on
 *     money-moving operations and on no other, `paging` true exactly when
 *     the operation has Return All + Limit, and `aggregatesItems`
 *     (itemByItem, allItemsAtOnce, or its own rule).
 *  5. A unique value in its resource, a name, an action, and a description
 *     saying what it returns.
 *  6. No path written in the operation: calls go through nodes/shared/api
 *     (PATHS, LISTS, the typed reads).
 *  7. Its own unit test, test/unit/operations/<resource>/<value>.test.ts
 *     (issue 32: the tests mirror the code), importing the operation's file.
 */

const folders = { payin, payout, cardTokenization, reconciliation, wallet } as Record<string, Record<string, unknown>>;
const all: NodeOperation[] = resources.flatMap((r) => r.operations);

/** The keys of the zod object a schema is (through preprocess, refinements, transforms and optional). */
function objectKeys(schema: z.ZodTypeAny): string[] | undefined {
	let s: z.ZodTypeAny = schema;
	for (let depth = 0; depth < 10; depth++) {
		if (s instanceof z.ZodObject) return Object.keys(s.shape as z.ZodRawShape);
		if (s instanceof z.ZodEffects) s = s.innerType();
		else if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodTypeAny;
		else if (s instanceof z.ZodDefault) s = s._def.innerType as z.ZodTypeAny;
		else return undefined;
	}
	return undefined;
}

/** The schema under a key of an object schema. */
function child(schema: z.ZodTypeAny, key: string): z.ZodTypeAny {
	let s: z.ZodTypeAny = schema;
	while (!(s instanceof z.ZodObject)) s = s instanceof z.ZodEffects ? s.innerType() : (s as z.ZodOptional<z.ZodTypeAny>).unwrap();
	return (s.shape as z.ZodRawShape)[key];
}

const valued = (props: INodeProperties[]) => [...new Set(props.filter((p) => p.type !== 'notice').map((p) => p.name))].sort();

describe.each(all.map((op) => [`${op.resource}:${op.value}`, op] as const))('operation %s', (_id, op) => {
	it('1-2. is exported under its value by its resource folder, once', () => {
		const exported = Object.entries(folders[op.resource]).filter(([, v]) => (v as NodeOperation).value === op.value);
		expect(exported.map(([name]) => name)).toEqual([op.value]);
		expect(all.filter((o) => o.resource === op.resource && o.value === op.value)).toHaveLength(1);
	});

	it('3. its top-level properties are exactly its schema keys', () => {
		const keys = objectKeys(op.schema);
		expect(keys).toBeDefined();
		expect(valued(op.properties)).toEqual([...keys!].sort());
	});

	it('3. the options of each collection are exactly the keys of its nested schema object', () => {
		for (const p of op.properties.filter((x) => x.type === 'collection' || x.type === 'fixedCollection')) {
			const nested = objectKeys(child(op.schema, p.name));
			expect({ collection: p.name, keys: nested && [...nested].sort() }).toEqual({
				collection: p.name,
				keys: valued((p.options ?? []) as INodeProperties[]),
			});
		}
	});

	it('4. declares its traits', () => {
		expect(['read', 'write', 'movesMoney']).toContain(op.effect);
		if (op.effect === 'movesMoney') expect(['in', 'out']).toContain(op.money?.direction);
		else expect(op.money).toBeUndefined();
		const names = op.properties.map((p) => p.name);
		expect(typeof op.paging).toBe('boolean');
		expect(op.paging).toBe(names.includes('returnAll') && names.includes('limit'));
		expect(typeof op.aggregatesItems).toBe('function');
	});

	it('5. has a name, an action and a description saying what it returns', () => {
		expect(op.name).toMatch(/\S/);
		expect(op.action).toMatch(/\S/);
		expect(op.description).toMatch(/Returns /);
	});
});

describe('operation files', () => {
	const root = join(__dirname, '../../../nodes/PayOnUs/resources');
	const files = Object.keys(folders).flatMap((folder) =>
		readdirSync(join(root, folder))
			.filter((f) => f.endsWith('.ts'))
			.map((f) => join(folder, f)),
	);

	it('6. write no path: calls go through nodes/shared/api', () => {
		// A path in a string or template literal (doc comments may name them).
		const withPaths = files.filter((f) => /['"`]\/api\/v1/.test(readFileSync(join(root, f), 'utf8')));
		expect(withPaths).toEqual([]);
	});

	it('1. one file per operation, named after its value', () => {
		for (const op of all) expect(files).toContain(join(op.resource, `${op.value}.ts`));
	});

	it('2. every operation a file exports is listed by its resource (the one line was not forgotten)', () => {
		const listed = new Set(all.map((op) => `${op.resource}/${op.value}`));
		for (const f of files.filter((x) => !x.endsWith('index.ts'))) {
			 
			const exported = Object.values(require(join(root, f)) as Record<string, unknown>).filter(
				(v): v is NodeOperation => !!v && typeof v === 'object' && typeof (v as NodeOperation).execute === 'function' && 'schema' in v,
			);
			const folder = f.split('/')[0];
			for (const op of exported) expect({ file: f, listed: listed.has(`${folder}/${op.value}`) }).toEqual({ file: f, listed: true });
		}
	});

	it('7. has its own test file, test/unit/operations/<resource>/<value>.test.ts, which imports the operation', () => {
		const untested = all
			.map((op) => ({ op: `${op.resource}/${op.value}`, test: join(__dirname, op.resource, `${op.value}.test.ts`) }))
			.filter(({ op, test }) => !existsSync(test) || !readFileSync(test, 'utf8').includes(`nodes/PayOnUs/resources/${op}'`))
			.map(({ op }) => op);
		expect(untested).toEqual([]);
		expect(all.length).toBeGreaterThanOrEqual(24);
	});
});
