import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';
import { resources } from '../../../nodes/PayOnUs/resources';
import * as cardTokenization from '../../../nodes/PayOnUs/resources/cardTokenization';
import * as payin from '../../../nodes/PayOnUs/resources/payin';
import * as payout from '../../../nodes/PayOnUs/resources/payout';
import * as reconciliation from '../../../nodes/PayOnUs/resources/reconciliation';
import * as wallet from '../../../nodes/PayOnUs/resources/wallet';
import type { NodeOperation } from '../../../nodes/PayOnUs/resources/types';
import { PATHS } from '../../../nodes/shared/api/paths';
import type { MoneyCall } from '../../../nodes/shared/moneyMoving/call';

/** What a money-moving call's declaration lacks (empty: path, proof, lookup and body fields all declared). */
function missingParts(call: MoneyCall | undefined): string[] {
	if (!call) return ['moneyCall'];
	const out: string[] = [];
	const paths = Object.values(PATHS).filter((p) => typeof p === 'string') as string[];
	if (typeof call.path !== 'string' || !paths.includes(call.path)) out.push('path');
	const p = call.proof as Partial<MoneyCall['proof']> | undefined;
	const fieldList = (v: unknown) => Array.isArray(v);
	if (!p || typeof p.kind !== 'string' || p.kind === '' || !fieldList(p.answer) || !fieldList(p.record) || (p.types !== undefined && p.types.length === 0)) out.push('proof');
	if (!['paymentRequests', 'transfers', 'batch'].includes(call.lookup as string)) out.push('lookup');
	const keys = call.body instanceof z.ZodObject ? Object.keys(call.body.shape as z.ZodRawShape) : [];
	if (keys.length === 0 || !keys.includes('reference') || !keys.includes('businessId')) out.push('body fields');
	return out;
}

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
 *  8. A money-moving operation ('movesMoney', or a 'write' sent with the
 *     money-moving safety) declares what makes its call move money, in its
 *     file, as `moneyCall`: its path (one of PATHS), how its success is
 *     proven (a proof: kind, service reference types, fields of the answer
 *     and of the record found), how it is looked up by reference
 *     (paymentRequests, transfers or batch) and its body's fields (a zod
 *     object). Its handler sends the call from that declaration; every call
 *     it sends with the money-moving safety is that call.
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

	it('8. a money-moving operation declares its call: path, proof, lookup and body fields', () => {
		// Required of every 'movesMoney' operation; complete wherever declared (a 'write' that sets up a collection).
		const declares = op.effect === 'movesMoney' || op.moneyCall !== undefined;
		expect({ op: op.value, missing: declares ? missingParts(op.moneyCall) : [] }).toEqual({ op: op.value, missing: [] });
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

	it('8. every money-moving call an operation sends is the one its file declares (a POST to a path no other call declares)', () => {
		const declared = all.filter((op) => op.moneyCall).map((op) => op.moneyCall!.path);
		expect(new Set(declared).size).toBe(declared.length);
		// Each operation file that sends money (sendMoney / postPayin) declares its moneyCall.
		const senders = files.filter((f) => /\b(sendMoney|postPayin)\(/.test(readFileSync(join(root, f), 'utf8')));
		const declaring = new Set(all.filter((op) => op.moneyCall).map((op) => join(op.resource, `${op.value}.ts`)));
		expect(senders.filter((f) => !declaring.has(f))).toEqual([]);
		// No operation builds a money-moving request by hand: every one goes through its declaration.
		expect(files.filter((f) => /moneyMoving:\s*[{m]/.test(readFileSync(join(root, f), 'utf8')))).toEqual([]);
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
