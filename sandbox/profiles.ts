/**
 * Behaviour profiles: each one is a reading of a point the specification
 * leaves open that a real PayOnUs service may take. The default (no
 * profile) is the sandbox as it always was. Profiles combine freely.
 *
 * Select them at start (`npm run sandbox -- --profile a,b`, env
 * `PAYONUS_SANDBOX_PROFILE=a,b`, `startSandbox({ profiles: ['a', 'b'] })`)
 * or at run time (`POST /_sandbox/profile {"profiles":["a","b"]}`,
 * `GET /_sandbox/profile`). A reset keeps the profiles.
 *
 * Tests and benches that touch lookup, paging, bulk or polling run under
 * each of `TEST_PROFILES` (and the default).
 */

export const PROFILE_NAMES = [
	'strict-paging',
	'ignores-undocumented-filters',
	'oldest-first',
	'bulk-rows-named-otherwise',
	'link-without-token-id',
	'bare-records',
	'duplicate-returns-existing',
	'prose-paging-fields',
	'unlisted-payout-statuses',
	'text-amounts',
	'rate-limited',
	'slows-under-load',
	'errors-in-200-unstated-status',
	'errors-in-200-response-code',
	'errors-in-200-status-text',
	'empty-success',
	'success-without-reference',
	'updated-date-unmoved',
	'updated-date-moves-later',
] as const;

export type ProfileName = (typeof PROFILE_NAMES)[number];

/** What each profile does (also shown by GET /_sandbox/profile). */
export const PROFILE_DESCRIPTIONS: Record<ProfileName, string> = {
	'strict-paging':
		'Every paged list (transfers, payment requests, links, card tokens, refunds) answers at most 20 records a page whatever pageSize/size asks; pageSize/size in the answer says 20. The spec names no maximum page size.',
	'ignores-undocumented-filters':
		'Transfer search honours only the documented merchantId and onusReference (and paging); merchantReference/reference, businessId, status, transferType, bulkReference, fromDate, toDate are ignored. The spec: "Further filters of this search: not shown".',
	'oldest-first':
		'Every paged list is sorted oldest first (the spec states no order).',
	'bulk-rows-named-otherwise':
		'Bulk row transfers get merchant references not derived from the batch reference (BULKROW-<n>), so "<batch>-<row>" finds nothing. The spec: bulk "other form parts and the response: not shown".',
	'link-without-token-id':
		'Tokenization link records (create, get by id, get by reference) carry no cardTokenId (the spec\'s link record table has none; only search items list it).',
	'bare-records':
		'Transfer records (search, bulk answer) carry only the fields of the spec\'s transfer table: no businessId, merchantId, bulkReference, id, countryCode, email, momoNetwork, responseMessage.',
	'duplicate-returns-existing':
		'A money-moving call whose reference is already used answers 200 with the EXISTING record instead of 409 (the spec says 409 "normally"). Transfers, bulk, token charges, mobile money collections, card payments.',
	'prose-paging-fields':
		'The payment request list answers only the prose paging fields page, size, totalElements, totalPages, sort (no pageNo, pageSize, lastPage, totalNumberOfItems).',
	'unlisted-payout-statuses':
		'Payout statuses the spec does not list (public material: "settled, failed, or rejected"; the public sandbox table\'s 9999991111 is PROCESSING): a transfer to an account ending 1111 shows PROCESSING (never settles), one ending 1122 fails and shows REJECTED (money reversed). Answers, search and bulk answers.',
	'text-amounts':
		'Transfer answers and records (create, search, bulk answer) carry amount and fee as text with two decimals ("1500.00"), as public integrations read them.',
	'rate-limited':
		'Every authenticated API call counts against a limit of RATE_LIMIT_PER_SECOND (50) calls per wall-clock second per API client; a call over it is answered 429 "Too many requests" with Retry-After (seconds to the next second, at least 1), before anything is processed. The spec names no limit for calls other than the token call.',
	'slows-under-load':
		'Each authenticated API call waits SLOW_MS_PER_CALL (4) ms for every call already in flight beyond SLOW_FREE_CALLS (16); with OVERLOAD_CALLS (96) or more in flight a call is answered 503 "Service overloaded" with Retry-After: 1, before anything is processed.',
	'errors-in-200-unstated-status':
		'Every API error is answered HTTP 200 with no status number anywhere: {"status":"error","success":false,"message":...,"error":{"code":"E<status>","message":...},"data":null} (sandbox/answerShapes.ts). The spec: "Shape of an error response body: not shown".',
	'errors-in-200-response-code':
		'Every API error is answered HTTP 200 as {"responseCode":"96" (26 for a duplicate),"responseMessage":...,"data":null}, no status (sandbox/answerShapes.ts).',
	'errors-in-200-status-text':
		'Every API error is answered HTTP 200 with its status as text: {"status":"400","message":...,"data":{"statusCode":"400","errors":[...]}} (sandbox/answerShapes.ts).',
	'empty-success':
		'Money-moving calls (transfers, bulk, card and stored-card charges, mobile money, EFT, dynamic accounts) are processed as usual, then answered {"status":200,"message":"Successful","data":null} (sandbox/answerShapes.ts).',
	'success-without-reference':
		'Money-moving calls are processed as usual, then answered without onusReference, merchantReference and reference in data (bulk rows without onusReference) (sandbox/answerShapes.ts).',
	'updated-date-unmoved':
		'A record keeps lastUpdatedDate at its createdDate when its status changes (payins, transfers, refunds): the spec types lastUpdatedDate but does not say what moves it. A late settlement then carries no date of its change.',
	'updated-date-moves-later':
		'A payin\'s lastUpdatedDate moves again, with no status change, when its money reaches the wallet (forwardedForSettlement: at once, after the configured delay, or T+1): the spec does not say what else moves it.',
};

/** `rate-limited`: calls a second per API client. */
export const RATE_LIMIT_PER_SECOND = 50;
/** `slows-under-load`: calls in flight served without delay, the delay per call beyond them, and the 503 threshold. */
export const SLOW_FREE_CALLS = 16;
export const SLOW_MS_PER_CALL = 4;
export const OVERLOAD_CALLS = 96;

export function isProfileName(name: string): name is ProfileName {
	return (PROFILE_NAMES as readonly string[]).includes(name);
}

/**
 * Parses profile names from a list or a comma-separated string (CLI, env).
 * Empty entries are skipped; `default` and `none` mean no profile. Throws on
 * an unknown name, listing the known ones.
 */
export function parseProfiles(input: string | readonly string[] | undefined | null): ProfileName[] {
	if (input === undefined || input === null) return [];
	const parts = (typeof input === 'string' ? input.split(',') : [...input]).map((s) => String(s).trim()).filter((s) => s !== '');
	const out: ProfileName[] = [];
	for (const p of parts) {
		if (p === 'default' || p === 'none') continue;
		if (!isProfileName(p)) throw new Error(`Unknown sandbox profile "${p}" (known: ${PROFILE_NAMES.join(', ')})`);
		if (!out.includes(p)) out.push(p);
	}
	return out;
}

/** The active profiles of one sandbox. */
export class Profiles {
	private active = new Set<ProfileName>();

	constructor(initial: readonly ProfileName[] = []) {
		this.set(initial);
	}

	set(names: readonly ProfileName[]): void {
		this.active = new Set(names);
	}

	has(name: ProfileName): boolean {
		return this.active.has(name);
	}

	list(): ProfileName[] {
		return PROFILE_NAMES.filter((n) => this.active.has(n));
	}
}

/**
 * The answer shapes the money tests and the answer-shapes bench run under
 * (sandbox/answerShapes.ts): the default and each reading of an answer's
 * shape the spec leaves open.
 */
export const ANSWER_SHAPE_TEST_PROFILES: Array<{ name: string; profiles: ProfileName[] }> = [
	{ name: 'default', profiles: [] },
	{ name: 'errors-in-200-unstated-status', profiles: ['errors-in-200-unstated-status'] },
	{ name: 'errors-in-200-response-code', profiles: ['errors-in-200-response-code'] },
	{ name: 'errors-in-200-status-text', profiles: ['errors-in-200-status-text'] },
	{ name: 'empty-success', profiles: ['empty-success'] },
	{ name: 'success-without-reference', profiles: ['success-without-reference'] },
	{ name: 'duplicate-returns-existing', profiles: ['duplicate-returns-existing'] },
];

/** Page size cap of `strict-paging`. */
export const STRICT_PAGE_SIZE = 20;

/**
 * The profiles tests and benches iterate: the default (no profile), each
 * single profile that touches lookup, paging, bulk or polling, and all of
 * them at once. Names are for describe.each titles.
 */
export const TEST_PROFILES: Array<{ name: string; profiles: ProfileName[] }> = [
	{ name: 'default', profiles: [] },
	{ name: 'strict-paging', profiles: ['strict-paging'] },
	{ name: 'ignores-undocumented-filters', profiles: ['ignores-undocumented-filters'] },
	{ name: 'oldest-first', profiles: ['oldest-first'] },
	{ name: 'bulk-rows-named-otherwise', profiles: ['bulk-rows-named-otherwise'] },
	{ name: 'bare-records', profiles: ['bare-records'] },
	{ name: 'duplicate-returns-existing', profiles: ['duplicate-returns-existing'] },
	{ name: 'prose-paging-fields', profiles: ['prose-paging-fields'] },
	{
		name: 'all',
		profiles: [
			'strict-paging',
			'ignores-undocumented-filters',
			'oldest-first',
			'bulk-rows-named-otherwise',
			'link-without-token-id',
			'bare-records',
			'prose-paging-fields',
		],
	},
];
