/**
 * Every endpoint of the payments service this package calls, in one table
 * (spec: docs/spec/payments-service.md, "Endpoints"; paths the
 * spec leaves out are marked). Nothing else in nodes/ writes an /api/v1 path.
 * Identifiers that go into a path are URI-encoded here.
 */

const id = (value: string) => encodeURIComponent(value);

export const PATHS = {
	// The credential's token call
	mint: '/api/v1/access-token',

	// Payins (payment requests)
	paymentRequests: '/api/v1/payment-requests',
	paymentRequestOfBusiness: (businessId: string) => `/api/v1/payment-requests/businesses/${id(businessId)}`,
	dynamicAccount: '/api/v1/virtual-accounts/dynamic',
	/** Not shown by the spec: the provider's public API. */
	fixedAccount: '/api/v1/virtual-accounts/fixed-account',
	cardPayments: '/api/v1/card-payments',
	storedCardCharge: '/api/v1/card-payments/with-token',
	/** Not shown by the spec (only cardAuthType is named): as agreed in DESIGN.md. */
	cardPaymentComplete: '/api/v1/card-payments/complete-payment',
	mobileMoneyCollection: '/api/v1/mobile-money/collection',
	/** Not shown by the spec: as agreed in DESIGN.md. */
	mobileMoneyVerifyOtp: '/api/v1/mobile-money/verify-otp',
	/** The spec names the list without its path: the provider's public API. */
	mobileMoneyNetworks: '/api/v1/mobile-money/networks',
	eftPayment: '/api/v1/eft-payment',
	eftBanks: '/api/v1/eft-payment/banks',
	/** Sandbox only. */
	fundNgnAccount: '/api/v1/fund-ngn-account',

	// Payouts (transfer requests)
	transferRequests: '/api/v1/transfer-requests',
	bankTransfer: '/api/v1/transfer-requests/bank-transfer',
	bulkBankTransfer: '/api/v1/transfer-requests/bulk/bank-transfer',
	nameEnquiry: '/api/v1/transfer-requests/name-enquiry',
	banks: '/api/v1/banks',

	// Wallets
	merchantWallets: (merchantId: string) => `/api/v1/merchants/${id(merchantId)}/wallets`,

	// Card tokenization (links: consent pages; stored cards: card tokens)
	links: '/api/v1/card-tokenization-links',
	link: (linkId: string) => `/api/v1/card-tokenization-links/${id(linkId)}`,
	linkByReference: (merchantReference: string) =>
		`/api/v1/card-tokenization-links/by-reference/${id(merchantReference)}`,
	storedCards: '/api/v1/card-tokens',
	storedCard: (cardTokenId: string) => `/api/v1/card-tokens/${id(cardTokenId)}`,
} as const;
