/**
 * Reference data of the sandbox: currencies, payout banks per currency, the
 * sandbox's own bank (virtual accounts), mobile money networks and the EFT
 * banks of South Africa. Read by the payin, payout and validation modules.
 */

/** Currencies a request may name (validate.ts); wallets exist only for the seeded ones. */
export const CURRENCIES = ['NGN', 'KES', 'ZAR', 'USD', 'GHS', 'UGX', 'TZS', 'XOF', 'RWF', 'ZMW'];

/** Country code a bulk transfer assumes for its currency when the request names none. */
export const COUNTRY_OF_CURRENCY: Record<string, string> = { NGN: 'NG', KES: 'KE', ZAR: 'ZA', GHS: 'GH', USD: 'NG' };

/** The bank of the sandbox's virtual accounts (dynamic and fixed). */
export const SANDBOX_BANK = { name: 'PayOnUs Sandbox MFB', code: '090999' };

/** Mobile money networks: payins (STK push, OTP where `otpRequired`) and payouts (WALLET_TO_MOMO). */
export const MOMO_NETWORKS = [
	{ code: 'MTN_GH', name: 'MTN Mobile Money Ghana', currency: 'GHS', countryCode: 'GH', otpRequired: false, initiatingCodeRequired: false },
	{ code: 'VODAFONE_GH', name: 'Telecel Cash Ghana', currency: 'GHS', countryCode: 'GH', otpRequired: true, initiatingCodeRequired: true },
	{ code: 'AIRTELTIGO_GH', name: 'AirtelTigo Money Ghana', currency: 'GHS', countryCode: 'GH', otpRequired: true, initiatingCodeRequired: false },
	{ code: 'MPESA_KE', name: 'M-Pesa Kenya', currency: 'KES', countryCode: 'KE', otpRequired: false, initiatingCodeRequired: false },
	{ code: 'AIRTEL_KE', name: 'Airtel Money Kenya', currency: 'KES', countryCode: 'KE', otpRequired: true, initiatingCodeRequired: false },
	{ code: 'VODACOM_ZA', name: 'VodaPay South Africa', currency: 'ZAR', countryCode: 'ZA', otpRequired: false, initiatingCodeRequired: false },
	{ code: 'MTN_ZA', name: 'MoMo South Africa', currency: 'ZAR', countryCode: 'ZA', otpRequired: false, initiatingCodeRequired: false },
];

/** South African banks of EFT payins (bank redirect) and WALLET_TO_EFT payouts. */
export const EFT_BANKS = [
	{ code: '632005', name: 'ABSA Bank' },
	{ code: '250655', name: 'First National Bank' },
	{ code: '051001', name: 'Standard Bank' },
	{ code: '198765', name: 'Nedbank' },
	{ code: '470010', name: 'Capitec Bank' },
	{ code: '580105', name: 'Investec Bank' },
];

/** Payout banks per currency (GET /api/v1/banks?key=, name enquiry, WALLET_TO_BANK_ACCOUNT). */
export const BANKS: Record<string, Array<{ code: string; name: string }>> = {
	NGN: [
		{ code: '044', name: 'Access Bank' },
		{ code: '050', name: 'Ecobank Nigeria' },
		{ code: '070', name: 'Fidelity Bank' },
		{ code: '011', name: 'First Bank of Nigeria' },
		{ code: '214', name: 'First City Monument Bank' },
		{ code: '058', name: 'Guaranty Trust Bank' },
		{ code: '076', name: 'Polaris Bank' },
		{ code: '221', name: 'Stanbic IBTC Bank' },
		{ code: '232', name: 'Sterling Bank' },
		{ code: '032', name: 'Union Bank of Nigeria' },
		{ code: '033', name: 'United Bank for Africa' },
		{ code: '035', name: 'Wema Bank' },
		{ code: '057', name: 'Zenith Bank' },
		{ code: '090999', name: 'PayOnUs Sandbox MFB' },
	],
	ZAR: EFT_BANKS,
	KES: [
		{ code: '01', name: 'Kenya Commercial Bank' },
		{ code: '03', name: 'Absa Bank Kenya' },
		{ code: '11', name: 'Co-operative Bank of Kenya' },
		{ code: '68', name: 'Equity Bank Kenya' },
	],
	GHS: [
		{ code: '040100', name: 'GCB Bank' },
		{ code: '130100', name: 'Ecobank Ghana' },
		{ code: '280100', name: 'Access Bank Ghana' },
	],
	USD: [
		{ code: 'USD-044', name: 'Access Bank (USD domiciliary)' },
		{ code: 'USD-058', name: 'Guaranty Trust Bank (USD domiciliary)' },
	],
};
