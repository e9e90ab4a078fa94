import { containsExpression, ItemParameters } from '../../../../nodes/PayOnUs/run/parameters';

/** Parameters without an expression are read once for all items (nodes/PayOnUs/run/parameters.ts). */
describe('ItemParameters', () => {
	const stored = {
		amount: 100,
		businessId: { __rl: true, mode: 'id', value: 'BUS-2001' },
		reference: '={{ $json.reference }}',
		nested: { a: [{ b: 'x' }, { c: '={{ $json.c }}' }] },
		fixedObject: { a: [{ b: 'x' }] },
	};
	const setUp = () => {
		const reads: Array<[string, number]> = [];
		const read = (name: string, i: number) => {
			reads.push([name, i]);
			if (name === 'broken') throw new Error('cannot read');
			if (name === 'reference') return `ref-${i}`;
			if (name === 'fixedObject') return { a: [{ b: 'x' }] };
			return (stored as Record<string, unknown>)[name] ?? `absent-${i}`;
		};
		const params = new ItemParameters(read, { ...stored, broken: 'x' }, [...Object.keys(stored), 'absent', 'broken']);
		return { reads, params };
	};

	it('finds expressions anywhere in a stored value', () => {
		expect(containsExpression('={{ 1 }}')).toBe(true);
		expect(containsExpression('plain = text')).toBe(false);
		expect(containsExpression(stored.nested)).toBe(true);
		expect(containsExpression(stored.businessId)).toBe(false);
		expect(containsExpression([1, null, true])).toBe(false);
	});

	it('reads a fixed parameter once, an expression or an absent one for every item', () => {
		const { reads, params } = setUp();
		for (let i = 0; i < 3; i++) {
			expect(params.get('amount', i)).toBe(100);
			expect(params.get('reference', i)).toBe(`ref-${i}`);
			expect(params.get('absent', i)).toBe(`absent-${i}`);
			expect(params.get('nested', i)).toEqual(stored.nested);
		}
		const count = (name: string) => reads.filter(([n]) => n === name).length;
		expect(count('amount')).toBe(1);
		expect(count('reference')).toBe(3);
		expect(count('absent')).toBe(3);
		expect(count('nested')).toBe(3);
		expect(params.isFixed('businessId')).toBe(true);
		expect(params.isFixed('nested')).toBe(false);
	});

	it('gives each item its own copy of a reused object', () => {
		const { params } = setUp();
		const first = params.get('fixedObject', 0) as { a: Array<{ b: string }> };
		first.a[0].b = 'changed by item 0';
		expect(params.get('fixedObject', 1)).toEqual({ a: [{ b: 'x' }] });
	});

	it('a fixed parameter that cannot be read fails the same way for every item', () => {
		const { reads, params } = setUp();
		expect(() => params.get('broken', 0)).toThrow('cannot read');
		expect(() => params.get('broken', 1)).toThrow('cannot read');
		expect(reads.filter(([n]) => n === 'broken')).toHaveLength(1);
	});
});
