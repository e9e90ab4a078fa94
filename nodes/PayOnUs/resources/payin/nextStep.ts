import type { IDataObject } from 'n8n-workflow';

/** Plain sentences telling the user what a payin's answer means for them. */

export function cardNextStep(data: IDataObject): string {
	const auth = data.authTypeRequired;
	const ref = String(data.onusReference ?? '');
	switch (auth) {
		case 'PIN':
			return `The card needs its PIN: collect the PIN from the customer and complete the payment with cardAuthType PIN for onusReference ${ref} (the completion call is not part of this node). Until then the payment is not final.`;
		case 'OTP':
			return `An OTP was sent to the customer's phone: collect it and complete the payment with cardAuthType OTP for onusReference ${ref} (the completion call is not part of this node). Until then the payment is not final.`;
		case 'THREE_DS':
			return `Send the customer to ${String(
				data.redirectUrl ?? '(no redirect URL returned)',
			)} to authenticate the payment with their bank (3-D Secure). A COLLECTION webhook arrives when it completes; or check it with Get Payment using onusReference ${ref}.`;
		default:
			return data.paymentStatus === 'SUCCESSFUL'
				? 'Nothing more to do: the card was charged.'
				: `No customer step is needed. The payment status is ${String(
						data.paymentStatus ?? 'unknown',
					)}; check it later with Get Payment using onusReference ${ref}.`;
	}
}
