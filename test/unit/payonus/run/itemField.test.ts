import { Expression, type INodeExecutionData, type INodeTypes, Workflow } from 'n8n-workflow';
import { itemField, itemFieldPath } from '../../../../nodes/PayOnUs/run/parameters';
import { PayOnUs } from '../../../../nodes/PayOnUs/PayOnUs.node';

/**
 * An expression that only names a field of the item is read from the item
 * (nodes/PayOnUs/run/parameters.ts itemField) when n8n's evaluation would
 * give exactly that value: compared here with n8n-workflow's own evaluation
 * of the same expression over the same items. Whatever the reader declines
 * is left to n8n (the e2e tests run both paths in a real n8n).
 */
describe('itemField: `={{ $json.<path> }}` read from the item, as n8n would give it', () => {
	const nodeTypes = { getByName: () => new PayOnUs(), getByNameAndVersion: () => new PayOnUs(), getKnownTypes: () => ({}) } as unknown as INodeTypes;
	const workflow = new Workflow({
		nodes: [{ id: '1', name: 'PayOnUs', type: 'n8n-nodes-payonus.payOnUs', typeVersion: 1, position: [0, 0], parameters: {} }],
		connections: {},
		active: false,
		nodeTypes,
	});
	const expression = new Expression(workflow);
	const n8nGives = (stored: string, items: INodeExecutionData[], i: number) =>
		expression.getParameterValue(stored, null, 0, i, 'PayOnUs', items, 'manual', {});

	const values: Array<string | number | boolean> = [
		'0123456789', '', '  padded  ', '=not an expression', '{{ $json.x }}', 'true', 0, -0, 123456789, 150.5, 1e21, true, false,
	];

	it('gives what n8n gives for text, finite numbers and true/false', () => {
		const items = values.map((v) => ({ json: { v, nested: { v } } }));
		for (const stored of ['={{ $json.v }}', '={{$json.v}}', '={{ $json.nested.v }}']) {
			const path = itemFieldPath(stored)!;
			expect(path).toBeDefined();
			items.forEach((item, i) => {
				const mine = itemField(item.json, path);
				expect(mine).not.toBeUndefined();
				expect(mine).toStrictEqual(n8nGives(stored, items, i));
			});
		}
	});

	it('declines (n8n decides) a missing, inherited, null, object, array, NaN or Infinity field', () => {
		const json = { nothing: null, obj: { a: 1 }, list: [1], nan: NaN, inf: Infinity, text: 'x' };
		for (const path of [['missing'], ['toString'], ['__proto__'], ['nothing'], ['obj'], ['list'], ['nan'], ['inf'], ['text', 'length'], ['list', '0']]) {
			expect(itemField(json, path)).toBeUndefined();
		}
		expect(itemField(undefined, ['a'])).toBeUndefined();
	});

	it('recognises only an expression that is nothing but a field of $json', () => {
		expect(itemFieldPath('={{ $json.onusReference }}')).toEqual(['onusReference']);
		expect(itemFieldPath({ __rl: true, mode: 'id', value: '={{ $json.businessId }}' })).toEqual(['businessId']);
		expect(itemFieldPath('={{ $json.customer.phone }}')).toEqual(['customer', 'phone']);
		for (const other of [
			'={{ $json["onusReference"] }}', '={{ $json.a }} ', '=ref-{{ $json.a }}', '={{ $json.a.trim() }}', '={{ $json.a || "x" }}',
			'={{ $json.a }}{{ $json.b }}', '={{ $input.item.json.a }}', '={{ $json }}', '{{ $json.a }}', '={{ $json.1a }}',
			{ __rl: true, mode: 'id', value: 'BUS-2001' }, { value: '={{ $json.a }}' }, 42, undefined,
		]) {
			expect(itemFieldPath(other)).toBeUndefined();
		}
	});
});
