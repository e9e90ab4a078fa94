/**
 * Numbers and records in the words people read (error titles, Dry Run
 * reports): "NGN 1,500.00", never "NGN 1500" or "10029607".
 */

/** "NGN 1,500.00": an amount with its currency, grouped, 2 decimals. Text that is not a number is shown as given. */
export function formatAmount(amount: unknown, currency?: unknown): string {
	const n = typeof amount === 'number' ? amount : typeof amount === 'string' && amount.trim() !== '' ? Number(amount) : NaN;
	const cur = typeof currency === 'string' && currency.trim() !== '' ? `${currency.trim().toUpperCase()} ` : '';
	if (!Number.isFinite(n)) return `${cur}${amount === undefined || amount === null ? '?' : String(amount)}`;
	const text = n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
	return `${cur}${text}`;
}

/** What a service path is about, in a builder's words ("payment", "transfer"...), for messages without the path. */
export function subjectOfPath(path: string): string {
	if (/transfer-requests\/name-enquiry/.test(path)) return 'account name lookup';
	if (/transfer-requests\/bulk/.test(path)) return 'bulk transfer';
	if (/transfer-requests/.test(path)) return 'transfer';
	if (/payment-requests|card-payments|mobile-money\/collection|eft-payment$|virtual-accounts|fund-ngn-account/.test(path)) return 'payment';
	if (/card-tokenization-links/.test(path)) return 'card tokenization link';
	if (/card-tokens/.test(path)) return 'card token';
	if (/wallets/.test(path)) return 'wallet';
	if (/banks|networks/.test(path)) return 'list';
	if (/access-token/.test(path)) return 'access token';
	return 'request';
}

function text(v: unknown): string | undefined {
	return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** A record in a title: "ONUS-TRNF-123 (SUCCESSFUL, NGN 1,500.00)". */
export function recordInBrief(record: Record<string, unknown>): string {
	const id = text(record.onusReference) ?? text(record.id) ?? 'without a PayOnUs reference';
	const facts: string[] = [];
	const status = text(record.paymentStatus) ?? text(record.status);
	if (status) facts.push(status);
	if (record.amount !== undefined && record.amount !== null && record.amount !== '') facts.push(formatAmount(record.amount, record.currency));
	return facts.length > 0 ? `${id} (${facts.join(', ')})` : id;
}
