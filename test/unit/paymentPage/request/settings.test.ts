/** Payment Page, step "read the node's parameters" (request/settings.ts). */
import { PageSetupError } from '../../../../nodes/PayOnUsPaymentPage/request/config';
import { readSettings, type ParameterReader } from '../../../../nodes/PayOnUsPaymentPage/request/settings';

function reader(values: Record<string, unknown>): { read: ParameterReader; asked: string[] } {
	const asked: string[] = [];
	const read: ParameterReader = (name, fallback) => {
		asked.push(name);
		return name in values ? values[name] : fallback;
	};
	return { read, asked };
}

describe('readSettings', () => {
	it('reads a fixed-amount page; hidden parameters are not read', () => {
		const { read, asked } = reader({ title: 'Ticket', amount: 5000, methods: ['bank'], businessId: ' BUS-9 ' });
		const { parameters, notPaidOutput } = readSettings(read, { businessId: 'BUS-1' });
		expect(parameters).toMatchObject({
			title: 'Ticket',
			businessId: 'BUS-9',
			currency: 'NGN',
			amountMode: 'fixed',
			amount: 5000,
			minAmount: 0,
			maxAmount: 0,
			askName: 'optional',
			askPhone: 'no',
			onSuccess: 'message',
			redirectUrl: '',
			expiryMinutes: 30,
			cardPublicKey: '',
			narration: 'Ticket',
		});
		expect(notPaidOutput).toBe(false);
		for (const hidden of ['minAmount', 'maxAmount', 'redirectUrl', 'cardPublicKey']) expect(asked).not.toContain(hidden);
	});

	it("takes the credential's Default Business ID for an empty Business, and the options", () => {
		const { read, asked } = reader({
			title: 'T',
			businessId: '',
			amountMode: 'customer',
			minAmount: 10,
			maxAmount: 100,
			onSuccess: 'redirect',
			redirectUrl: 'https://shop.test/thanks',
			methods: ['card'],
			cardPublicKey: 'PEM',
			options: { expiryMinutes: 5, narration: 'Order', notPaidOutput: true },
		});
		const { parameters, notPaidOutput } = readSettings(read, { businessId: 'BUS-1' });
		expect(parameters).toMatchObject({
			businessId: 'BUS-1',
			amount: 0,
			minAmount: 10,
			maxAmount: 100,
			successMessage: '',
			redirectUrl: 'https://shop.test/thanks',
			cardPublicKey: 'PEM',
			expiryMinutes: 5,
			narration: 'Order',
		});
		expect(notPaidOutput).toBe(true);
		expect(asked).not.toContain('amount');
		expect(asked).not.toContain('successMessage');
	});

	it('leaves an empty Business empty when the credential has no default (config.ts then says what to fix)', () => {
		const { read } = reader({ title: 'T', businessId: '  ' });
		expect(readSettings(read, { merchantId: 'MER-1' }).parameters.businessId).toBe('');
	});
});

describe('readSettings: a Business that comes out empty (rule 5)', () => {
	const page = { title: 'T', amount: 10, methods: ['bank'] };

	it('stops the page when an expression gives nothing, naming the field and the expression', () => {
		const { read } = reader({ ...page, businessId: '' });
		const stored = { businessId: '={{ $json.businessId }}' };
		expect(() => readSettings(read, { businessId: 'BUS-1' }, stored)).toThrow(PageSetupError);
		expect(() => readSettings(read, { businessId: 'BUS-1' }, stored)).toThrow(/"Business" came out empty: \{\{ \$json\.businessId \}\}/);
	});

	it('a resource locator holding an expression that gives nothing stops the page too', () => {
		const { read } = reader({ ...page, businessId: '  ' });
		const stored = { businessId: { __rl: true, mode: 'id', value: '={{ $vars.shopBusiness }}' } };
		expect(() => readSettings(read, { businessId: 'BUS-1' }, stored)).toThrow(/applies only when Business is left empty in the editor/);
	});

	it("a Business left empty in the editor takes the credential's default", () => {
		const { read } = reader({ ...page, businessId: '' });
		expect(readSettings(read, { businessId: 'BUS-1' }, {}).parameters.businessId).toBe('BUS-1');
		expect(readSettings(read, { businessId: 'BUS-1' }, { businessId: { __rl: true, mode: 'list', value: '' } }).parameters.businessId).toBe('BUS-1');
	});

	it('an expression that gives a business is kept', () => {
		const { read } = reader({ ...page, businessId: 'BUS-7' });
		expect(readSettings(read, { businessId: 'BUS-1' }, { businessId: '={{ $json.b }}' }).parameters.businessId).toBe('BUS-7');
	});

	it('a price from an expression is read one way (rule 7): "1.500" and "1,500" are refused naming the form, "1500.50" is read exactly', () => {
		for (const amount of ['1.500', '1,500', '150,50']) {
			const { read } = reader({ title: 'Ticket', amount, methods: ['bank'], businessId: 'BUS-9' });
			expect(() => readSettings(read, { businessId: 'BUS-1' })).toThrow(PageSetupError);
			expect(() => readSettings(read, { businessId: 'BUS-1' })).toThrow(/^Amount .*(1500|150\.50)/);
		}
		const { read } = reader({ title: 'Ticket', amountMode: 'customer', minAmount: '1,000', maxAmount: '5000', methods: ['bank'], businessId: 'BUS-9' });
		expect(() => readSettings(read, { businessId: 'BUS-1' })).toThrow(/^Minimum Amount /);
		const exact = reader({ title: 'Ticket', amount: '1500.50', methods: ['bank'], businessId: 'BUS-9' });
		expect(readSettings(exact.read, { businessId: 'BUS-1' }).parameters.amount).toBe(1500.5);
	});
});
