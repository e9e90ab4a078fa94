import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../clientInterface';
import { PATHS } from './paths';

/**
 * The customer steps that complete a payin already started (PIN or OTP of a
 * card payment, OTP of a mobile money collection). Paths not shown by the
 * spec; as agreed in DESIGN.md. Each is sent once: a POST is never retried
 * by the transport. Used by the payment page.
 */

export async function completeCardPayment(
	client: PayOnUsClient,
	body: { onusReference: string; cardAuthType: string; authData: string; businessId: string },
): Promise<IDataObject> {
	return await client.request<IDataObject>({ method: 'POST', path: PATHS.cardPaymentComplete, body });
}

export async function verifyMobileMoneyOtp(
	client: PayOnUsClient,
	body: { onusReference: string; otp: string; businessId: string },
): Promise<IDataObject> {
	return await client.request<IDataObject>({ method: 'POST', path: PATHS.mobileMoneyVerifyOtp, body });
}
