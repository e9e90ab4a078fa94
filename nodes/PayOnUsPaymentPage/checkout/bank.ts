import { createBankTransferPayin } from '../service';
import { createOnce } from './adopt';
import { customerName, nextAttempt, withAttempt } from './input';
import { current } from './refresh';
import { attemptReference, type Attempt, type CheckoutState } from './sealedState';
import type { CheckoutEnv, View } from './types';

/** Bank transfer: a one-time account to pay into (Create Dynamic Account); the page then waits for the transfer. */
export async function bank(env: CheckoutEnv, state: CheckoutState): Promise<View> {
	const n = nextAttempt(state);
	const attempt: Attempt = { n, m: 'bank', s: 'bank' };
	const result = await createOnce(env, state, attempt, async () =>
		await createBankTransferPayin(env, {
			businessId: env.config.businessId,
			amount: state.amt,
			reference: attemptReference(state, n),
			customerName: customerName(state),
			customerEmail: state.em,
			additionalFields: state.ph ? { customerPhone: state.ph } : {},
		}),
	);
	if ('adopted' in result) return result.adopted;
	const data = result.created;
	attempt.acct = {
		no: String(data.accountNumber ?? ''),
		bank: String(data.bankName ?? ''),
		name: String(data.accountName ?? ''),
	};
	return await current(env, withAttempt(state, attempt));
}
