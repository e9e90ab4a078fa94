/**
 * Payins: dynamic and fixed virtual accounts with the sandbox fund simulation,
 * card payments (no auth, PIN, OTP, THREE_DS), mobile money (STK push, OTP),
 * EFT (bank redirect), the status query and the payment request list. One
 * module per channel; record.ts is the payin's life shared by all of them.
 */
import type { Router } from '../../router';
import { completeCard, cardPayment } from './card';
import { createDynamic } from './dynamicAccount';
import { listEftBanks, eftPayment } from './eft';
import { createFixed } from './fixedAccount';
import { fund } from './fund';
import { listNetworks, momoCollection, verifyOtp } from './mobileMoney';
import { getPayment, listPayments } from './requests';

export function registerPayins(router: Router): void {
	router.add('POST', '/api/v1/virtual-accounts/dynamic', createDynamic);
	router.add('POST', '/api/v1/virtual-accounts/fixed-account', createFixed);
	router.add('POST', '/api/v1/fund-ngn-account', fund);
	router.add('POST', '/api/v1/card-payments', cardPayment);
	router.add('POST', '/api/v1/card-payments/complete-payment', completeCard);
	router.add('POST', '/api/v1/mobile-money/collection', momoCollection);
	router.add('POST', '/api/v1/mobile-money/verify-otp', verifyOtp);
	router.add('GET', '/api/v1/mobile-money/networks', listNetworks);
	router.add('GET', '/api/v1/eft-payment/banks', listEftBanks);
	router.add('POST', '/api/v1/eft-payment', eftPayment);
	router.add('GET', '/api/v1/payment-requests/businesses/:businessId', getPayment);
	router.add('GET', '/api/v1/payment-requests', listPayments);
}
