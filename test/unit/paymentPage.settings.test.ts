/** Payment Page, step "read the node's parameters" (request/settings.ts). */
import { readSettings, type ParameterReader } from '../../nodes/PayOnUsPaymentPage/request/settings';

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
