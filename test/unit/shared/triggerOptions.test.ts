/**
 * The filter options shared by the PayOnUs Trigger and the Poll Trigger
 * (nodes/shared/triggerOptions.ts): public names and defaults, and how the
 * values are read.
 */
import { PayOnUsTrigger } from '../../../nodes/PayOnUsTrigger/PayOnUsTrigger.node';
import { PayOnUsPollTrigger } from '../../../nodes/PayOnUsPollTrigger/PayOnUsPollTrigger.node';
import { readFilters, splitList, statusSelected } from '../../../nodes/shared/triggerOptions';

function optionsOf(properties: Array<{ name: string; options?: unknown[] }>) {
	return properties.find((p) => p.name === 'options')?.options as Array<Record<string, unknown>>;
}

describe('shared trigger options', () => {
	it('PayOnUs Poll Trigger keeps the public names, types, defaults and status values', () => {
		const options = optionsOf(new PayOnUsPollTrigger().description.properties as never);
		const business = options.find((o) => o.name === 'businessIds')!;
		const statuses = options.find((o) => o.name === 'statuses')!;
		expect(business).toMatchObject({ displayName: 'Only Business IDs', type: 'string', default: '', placeholder: 'BUS-2001, BUS-2002' });
		expect(statuses).toMatchObject({ displayName: 'Only Statuses', type: 'multiOptions', default: [] });
		expect((statuses.options as Array<{ value: string }>).map((o) => o.value)).toEqual(['FAILED', 'PENDING', 'PROCESSING', 'SUCCESSFUL']);
		expect(typeof business.description).toBe('string');
		expect(typeof statuses.description).toBe('string');
	});

	it('PayOnUs Trigger keeps Only Business IDs under Options; its Statuses are on the panel (test/unit/trigger/properties.test.ts), not under Options', () => {
		const options = optionsOf(new PayOnUsTrigger().description.properties as never);
		const business = options.find((o) => o.name === 'businessIds')!;
		expect(business).toMatchObject({ displayName: 'Only Business IDs', type: 'string', default: '', placeholder: 'BUS-2001, BUS-2002' });
		expect(typeof business.description).toBe('string');
		expect(options.find((o) => o.name === 'statuses')).toBeUndefined();
	});

	it('splitList reads comma-separated text and lists, trimmed, without empties', () => {
		expect(splitList(' BUS-1, ,BUS-2 ,')).toEqual(['BUS-1', 'BUS-2']);
		expect(splitList(['a ', '', ' b'])).toEqual(['a', 'b']);
		expect(splitList(undefined)).toEqual([]);
		expect(splitList(42)).toEqual([]);
	});

	it('readFilters upper-cases statuses and keeps business IDs as entered', () => {
		expect(readFilters({ statuses: ['successful', 'FAILED'], businessIds: 'bus-1, BUS-2' })).toEqual({
			statuses: ['SUCCESSFUL', 'FAILED'],
			businessIds: ['bus-1', 'BUS-2'],
		});
		expect(readFilters({})).toEqual({ statuses: [], businessIds: [] });
	});

	it('statusSelected: no filter passes everything, else a case-insensitive match', () => {
		expect(statusSelected(undefined, [])).toBe(true);
		expect(statusSelected('successful', ['SUCCESSFUL'])).toBe(true);
		expect(statusSelected('SUCCESSFUL', ['successful'])).toBe(true);
		expect(statusSelected('FAILED', ['SUCCESSFUL'])).toBe(false);
		expect(statusSelected(undefined, ['SUCCESSFUL'])).toBe(false);
	});
});
