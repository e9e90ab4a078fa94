/**
 * Issue 38, point 2: a transfer's first answer is PENDING, which is not its
 * outcome; the form (a notice) and the output (a hint above it) say where the
 * final status comes from. Verify Beneficiary Name First says what it
 * compares and where the bank's name comes from; Amount says how to map.
 */
import { buildProperties } from '../../../../nodes/PayOnUs/properties';
import { PENDING_IS_NOT_FINAL, pendingTransferHint } from '../../../../nodes/PayOnUs/resources/payout/pendingHint';

const shown = (name: string, operation: string) =>
	buildProperties().filter((p) => p.name === name && (p.displayOptions?.show?.operation as string[] | undefined)?.includes(operation));

describe('PENDING is not final', () => {
	it('the wording names both ways to the final status', () => {
		expect(PENDING_IS_NOT_FINAL).toMatch(/^PENDING is not final/);
		expect(PENDING_IS_NOT_FINAL).toContain('PAYOUT notification (PayOnUs Trigger, event Payout');
		expect(PENDING_IS_NOT_FINAL).toContain('Payout → Get Transfer with its onusReference');
	});

	it('Create Transfer shows it as a notice', () => {
		const notice = shown('pendingNotice', 'createTransfer');
		expect(notice).toHaveLength(1);
		expect(notice[0]).toMatchObject({ type: 'notice', displayName: PENDING_IS_NOT_FINAL });
	});

	it('the output of a PENDING transfer, or a batch with a PENDING row, gets the hint; a final or failed one none', () => {
		expect(pendingTransferHint([{ onusReference: 'ONUS-TRNF-1', paymentStatus: 'PENDING' }])).toEqual({
			type: 'info',
			location: 'outputPane',
			message: `This transfer is PENDING. ${PENDING_IS_NOT_FINAL}`,
		});
		expect(pendingTransferHint([{ reference: 'b-1', transfers: [{ paymentStatus: 'SUCCESSFUL' }, { paymentStatus: 'PENDING' }] }])?.message).toMatch(/^This transfer is PENDING/);
		expect(pendingTransferHint([{ paymentStatus: 'PENDING' }, { paymentStatus: 'SUCCESSFUL' }, { error: 'x', paymentStatus: 'PENDING' }])?.message).toMatch(/^1 of 3 items are PENDING\. PENDING is not final/);
		expect(pendingTransferHint([{ paymentStatus: 'SUCCESSFUL' }])).toBeUndefined();
		expect(pendingTransferHint([{ error: 'Insufficient wallet balance' }])).toBeUndefined();
	});
});

describe('the form says what a field needs before a run fails', () => {
	it('Verify Beneficiary Name First: what it compares, and Look Up Account Name for the bank\'s name', () => {
		const verify = buildProperties().filter((p) => p.name === 'verifyBeneficiaryName' && p.default === true);
		expect(verify).toHaveLength(1);
		expect(verify[0].hint).toContain('Compares Beneficiary Account Name with the name the bank holds for this account');
		expect(verify[0].hint).toContain('Payout → Look Up Account Name');
	});

	it('every Amount says how to map an expression into it', () => {
		const amounts = buildProperties().filter((p) => p.name === 'amount' && p.type === 'number');
		expect(amounts.length).toBeGreaterThanOrEqual(5);
		for (const a of amounts) expect(a.hint).toBe('To map or compute it, switch to Expression (above this field) first, then type e.g. {{ $json.amount * 0.8 }}');
	});
});
