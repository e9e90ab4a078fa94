/**
 * Each reason a record does not prove a movement is named once in the
 * message (rule 1, nodes/shared/moneyMoving/proof.ts: the reference and
 * "no transfers shown" are the proof's to say; the call's check compares
 * the values shown, nothing else).
 */
import type { IDataObject } from 'n8n-workflow';
import { sendMoneyMoving, type MoneyCaller, type MoneyMovingOptions, type OutcomeText } from '../../../nodes/shared/moneyMoving';
import type { RequestOptions } from '../../../nodes/shared/clientInterface';
import { PATHS } from '../../../nodes/shared/api/paths';
import { batchCheck, bulkBankTransfer } from '../../../nodes/PayOnUs/resources/payout/bulkTransfer';
import { bankTransfer } from '../../../nodes/PayOnUs/resources/payout/createTransfer';
import type { BulkRow } from '../../../nodes/PayOnUs/resources/payout/csv';
import { compare } from '../../../nodes/shared/moneyMoving/match';

/** A caller whose POST answers `answer` (HTTP 200); an "outcome unknown" error carries its description. */
function caller(answer: IDataObject): MoneyCaller {
	return {
		attempt: async () => answer,
		error: () => new Error('not expected') as never,
		outcomeError: (_outcome, _opts, text: OutcomeText) => Object.assign(new Error(text.message), { description: text.description }) as never,
		secrets: () => [],
		pause: async () => {},
		backoff: () => 0,
		limits: { lookupAttempts: 1, moneyMovingResends: 0, pushBackRetries: 0 },
	};
}

async function unknownDescription(path: string, answer: IDataObject, mm: MoneyMovingOptions): Promise<string> {
	const opts: RequestOptions = { method: 'POST', path };
	const error = (await sendMoneyMoving(caller(answer), opts, mm).catch((e: unknown) => e)) as Error & { description: string };
	expect(error.message).toContain('Outcome unknown');
	return error.description;
}

describe('the reasons an answer proves nothing, each said once', () => {
	it('a batch answer without transfers: "no transfers shown" once', async () => {
		const rows: BulkRow[] = [
			{ beneficiaryAccountNumber: '0123456789', beneficiaryAccountName: 'A', beneficiaryBankCode: '058', amount: 100, narration: 'a' },
			{ beneficiaryAccountNumber: '0123456780', beneficiaryAccountName: 'B', beneficiaryBankCode: '058', amount: 200, narration: 'b' },
		];
		const description = await unknownDescription(
			PATHS.bulkBankTransfer,
			{ status: 200, data: { reference: 'batch-1', totalCount: 2, totalAmount: 300 } },
			{ reference: 'batch-1', noun: 'bulk transfer', proof: bulkBankTransfer.proof, lookup: async () => undefined, check: batchCheck('batch-1', rows), lookupProvesAbsence: false },
		);
		expect(description.match(/no transfers shown/g)).toHaveLength(1);
	});

	it('a transfer answer holding another reference: that reference once', async () => {
		const expected = { reference: 'payout-0001', businessId: 'BUS-1', amount: 100, currency: 'NGN' };
		const description = await unknownDescription(
			PATHS.bankTransfer,
			{ status: 200, data: { onusReference: 'ONUS-TRNF-1-1', merchantReference: 'payout-0002', amount: 100, currency: 'NGN' } },
			{ reference: 'payout-0001', noun: 'transfer', proof: bankTransfer.proof, expected, lookup: async () => undefined, check: (r) => compare(expected, r) },
		);
		expect(description.match(/reference payout-0002 \(requested payout-0001\)/g)).toHaveLength(1);
	});
});
