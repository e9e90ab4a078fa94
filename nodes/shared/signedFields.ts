/**
 * Rule 7 at the webhook door: the fields a notification's `hash` signs are
 * read one way (docs/reliability.md, "Rule 7 at the webhook door").
 *
 * The hash is taken over accountNumber + onusReference + paymentStatus
 * written one after another (./signature.ts), so the hash alone does not say
 * where one field ends and the next begins: characters moved across a
 * boundary ("0123456789" + "ONUS-..." as "012345678" + "9ONUS-...") keep
 * it valid and make another event. Each signed field must therefore be in
 * the service's form (spec, Formats and States); in these forms the
 * concatenation splits one way only: the status is the trailing letters
 * (the reference ends in a digit), the reference is the one
 * `ONUS-<TYPE>-<13 digits>-<DDMMYYYY>-<HHMMSS>` before it (its type holds
 * no dash), the account number is what is left.
 *
 * Pure; authenticate.ts of the PayOnUs Trigger refuses a notification whose
 * signed fields are not each in their form like a bad signature.
 */

/** `onusReference` (spec, Formats; the prefix is ONUS: public facts). */
const REFERENCE = /^ONUS-([A-Z]+)-(\d{13})-(\d{2})(\d{2})(\d{4})-(\d{2})(\d{2})(\d{2})$/;

/**
 * The statuses a signed event reports (spec, States: payins PROCESSING,
 * PENDING, SUCCESSFUL, FAILED; transfers and refunds PENDING, SUCCESSFUL,
 * FAILED; REJECTED, a transfer status public integrations read).
 */
export const SIGNED_STATUSES: readonly string[] = ['PENDING', 'PROCESSING', 'SUCCESSFUL', 'FAILED', 'REJECTED'];

/**
 * The account number a notification carries, as the service writes it (the
 * spec types it as text and gives no length): none (a card payin may carry
 * none), digits (a bank account, a local phone number), `+` and digits (a
 * phone number in the spec's international format), or a masked card number
 * (its first and last digits, `*` or `X` between). None of these holds a
 * letter at its end, so no character of the reference can move into it.
 */
const ACCOUNT = /^(?:\d{1,34}|\+\d{7,15}|\d{4,8}[*Xx]{2,12}\d{2,4})$/;

/** The forms, named as the refusal names them. */
export const SIGNED_FORMS = {
	accountNumber:
		'text: none, digits (at most 34), "+" and 7 to 15 digits, or a masked card number (4 to 8 digits, "*" or "X", 2 to 4 digits)',
	onusReference: 'text "ONUS-<TYPE>-<13 digits>-<DDMMYYYY>-<HHMMSS>" (a real date and time, TYPE in capital letters)',
	paymentStatus: `text, one of ${SIGNED_STATUSES.join(', ')}`,
} as const;

/**
 * The date and time stamped in an onusReference, as the service writes
 * record times (`YYYY-MM-DD HH:MM:SS`); undefined when the reference is not
 * in its form or the stamp is no real date and time.
 */
export function referenceTime(onusReference: unknown): string | undefined {
	if (typeof onusReference !== 'string') return undefined;
	const m = REFERENCE.exec(onusReference);
	if (!m) return undefined;
	const [, , , dd, mo, yyyy, hh, mi, ss] = m;
	const [day, month, year] = [Number(dd), Number(mo), Number(yyyy)];
	const date = new Date(Date.UTC(year, month - 1, day));
	const realDay = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
	if (!realDay || Number(hh) > 23 || Number(mi) > 59 || Number(ss) > 59) return undefined;
	return `${yyyy}-${mo}-${dd} ${hh}:${mi}:${ss}`;
}

/** The three signed fields of a notification body. */
export interface SignedFieldValues {
	accountNumber?: unknown;
	onusReference?: unknown;
	paymentStatus?: unknown;
}

/**
 * Undefined when each signed field is in its form, else the first that is
 * not, named with its form (never its value: an account number is personal
 * data). A number is not text: an account number sent as 123456789 may
 * have lost a leading zero.
 */
export function signedFieldsProblem(fields: SignedFieldValues): string | undefined {
	const { accountNumber, onusReference, paymentStatus } = fields;
	const noAccount = accountNumber === undefined || accountNumber === null;
	if (!noAccount && !(typeof accountNumber === 'string' && (accountNumber === '' || ACCOUNT.test(accountNumber)))) {
		return `accountNumber is not ${SIGNED_FORMS.accountNumber}`;
	}
	if (referenceTime(onusReference) === undefined) return `onusReference is not ${SIGNED_FORMS.onusReference}`;
	if (typeof paymentStatus !== 'string' || !SIGNED_STATUSES.includes(paymentStatus)) {
		return `paymentStatus is not ${SIGNED_FORMS.paymentStatus}`;
	}
	return undefined;
}

/**
 * Why a Webhook Verification Key cannot verify anything, else undefined:
 * none, or only spaces (anyone can compute a hash under it), or spaces or
 * line breaks at its start or end (the key with and without them are two
 * readings; the dashboard's key has none).
 */
export function keyProblem(key: unknown): string | undefined {
	if (typeof key !== 'string' || key.length === 0) return 'has no Webhook Verification Key';
	if (key.trim().length === 0) return 'has a Webhook Verification Key made only of spaces';
	if (key.trim() !== key) return 'has a Webhook Verification Key with spaces or line breaks at its start or end';
	return undefined;
}
