import { keyProblem, referenceTime, signedFieldsProblem } from '../../../nodes/shared/signedFields';

/** Notifications in the forms the sandbox sends (one per channel and event). */
const GENUINE = [
	{ accountNumber: '8000007919', onusReference: 'ONUS-NUB-1764324000000-28112026-100000', paymentStatus: 'SUCCESSFUL' },
	{ accountNumber: '+254700000001', onusReference: 'ONUS-MMO-0000000000001-01012025-000000', paymentStatus: 'FAILED' },
	{ accountNumber: '411111******1111', onusReference: 'ONUS-CARD-9999999999999-31122024-235959', paymentStatus: 'SUCCESSFUL' },
	{ accountNumber: '539983XXXXXX1234', onusReference: 'ONUS-CARD-9999999999998-31122024-235959', paymentStatus: 'FAILED' },
	{ accountNumber: '632005', onusReference: 'ONUS-EFT-1234567890123-29022024-120000', paymentStatus: 'PROCESSING' },
	{ accountNumber: '', onusReference: 'ONUS-TRNF-1234567890123-01012025-101010', paymentStatus: 'PENDING' },
	{ accountNumber: '9999991112', onusReference: 'ONUS-RFND-1234567890123-01012025-101010', paymentStatus: 'REJECTED' },
];

describe('signed fields, one reading (rule 7 at the webhook door)', () => {
	it.each(GENUINE)('accepts $accountNumber / $onusReference / $paymentStatus', (fields) => {
		expect(signedFieldsProblem(fields)).toBeUndefined();
	});

	it('refuses every other split of the same signed text (so no boundary shift keeps the hash and changes the event)', () => {
		let splits = 0;
		for (const fields of GENUINE) {
			const text = fields.accountNumber + fields.onusReference + fields.paymentStatus;
			for (let i = 0; i <= text.length; i++) {
				for (let j = i; j <= text.length; j++) {
					const split = { accountNumber: text.slice(0, i), onusReference: text.slice(i, j), paymentStatus: text.slice(j) };
					if (split.accountNumber === fields.accountNumber && split.onusReference === fields.onusReference) continue;
					splits++;
					expect({ split, problem: typeof signedFieldsProblem(split) }).toEqual({ split, problem: 'string' });
				}
			}
		}
		expect(splits).toBeGreaterThan(5000);
	});

	it('names the field and its form, never the value', () => {
		expect(signedFieldsProblem({ ...GENUINE[0], accountNumber: 8000007919 })).toMatch(/^accountNumber is not text: none, digits/);
		expect(signedFieldsProblem({ ...GENUINE[0], onusReference: 'ONUS-1' })).toMatch(/^onusReference is not text "ONUS-<TYPE>-<13 digits>-<DDMMYYYY>-<HHMMSS>"/);
		expect(signedFieldsProblem({ ...GENUINE[0], paymentStatus: 'Successful' })).toBe(
			'paymentStatus is not text, one of PENDING, PROCESSING, SUCCESSFUL, FAILED, REJECTED',
		);
		expect(signedFieldsProblem({ ...GENUINE[0], accountNumber: '80000 07919' })).not.toContain('80000');
	});

	it('reads the stamp of a reference as a service time, only for a real date and time', () => {
		expect(referenceTime('ONUS-NUB-1764324000000-28112026-100503')).toBe('2026-11-28 10:05:03');
		expect(referenceTime('ONUS-EFT-1234567890123-29022024-120000')).toBe('2024-02-29 12:00:00');
		for (const bad of ['ONUS-EFT-1234567890123-29022025-120000', 'ONUS-NUB-1764324000000-28132026-100000', 'ONUS-NUB-1764324000000-28112026-240000', 'ONUS-NUB-1764324000000-28112026-106000', 42, undefined]) {
			expect(referenceTime(bad)).toBeUndefined();
		}
	});
});

describe('a verification key that can verify', () => {
	it('refuses none, only spaces, and spaces at its ends; accepts any other text as it is', () => {
		expect(keyProblem('')).toBe('has no Webhook Verification Key');
		expect(keyProblem(undefined)).toBe('has no Webhook Verification Key');
		expect(keyProblem('    ')).toBe('has a Webhook Verification Key made only of spaces');
		expect(keyProblem('\t\r\n ')).toBe('has a Webhook Verification Key made only of spaces');
		expect(keyProblem('key ')).toBe('has a Webhook Verification Key with spaces or line breaks at its start or end');
		expect(keyProblem('\nkey')).toBe('has a Webhook Verification Key with spaces or line breaks at its start or end');
		expect(keyProblem('clé secrète 🔑')).toBeUndefined();
	});
});
