/**
 * Money drills without n8n: every money-moving operation of the PayOnUs node
 * driven through its handler and the REAL transport (n8n-core's request
 * helpers, dev/inProcessN8n.ts) against the sandbox, under a
 * behaviour profile and a fault; then the outputs are compared with the
 * sandbox's ledger. Used by test/unit/shared/moneyMoving.profiles.test.ts and
 * bench/money-drill.bench.ts.
 */
import { constants, publicEncrypt } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { createClient } from '../nodes/shared/transport';
import { tokenCache } from '../nodes/shared/accessToken/cache';
import type { PayOnUsClient } from '../nodes/shared/clientInterface';
import { movesMoney, type NodeOperation, type OperationContext, operationId, type PayOnUsOperation } from '../nodes/PayOnUs/resources/types';
import { resources } from '../nodes/PayOnUs/resources';
import { PayOnUsApi } from '../credentials/PayOnUsApi.credentials';
import { CredentialStore, FakeN8n, sandboxCredential } from './inProcessN8n';
import { SandboxClient } from '../sandbox/client';
import { startSandbox } from '../sandbox/server';
import type { ProfileName } from '../sandbox/profiles';

export const BUSINESS = 'BUS-2001';

/** A client through the real transport, as the node builds it. */
export async function moneyClient(url: string): Promise<PayOnUsClient> {
	const n8n = new FakeN8n(new CredentialStore(sandboxCredential(url)), new PayOnUsApi());
	return await createClient(n8n.context() as never, { sleep: async () => {}, timeoutMs: 5000 });
}

/** One movement of a drill: what was asked (for the ledger check). */
export interface Intent {
	reference: string;
	kind: 'transfer' | 'payin' | 'bulk';
	amount: number;
	/** Beneficiary account (transfers) or customer phone (mobile money). */
	account?: string;
	/** Bulk: the rows. */
	rows?: Array<{ account: string; amount: number }>;
}

export interface MoneyOp {
	name: string;
	/** POST path of the money-moving call (where faults go): the operation's declared `moneyCall.path`. */
	path: string;
	op: PayOnUsOperation;
	/** Raw node parameters for movement `i` with `reference`; `variant` 1 gives other details (reused reference). */
	params(reference: string, i: number, variant: 0 | 1, env: DrillEnv): { raw: IDataObject; intent: Intent; binary?: string };
	/** Prepares what the op needs after a reset (e.g. a card token). */
	setup?(env: DrillEnv): Promise<void>;
}

export interface DrillEnv {
	url: string;
	cardTokenId?: string;
	publicKey?: string;
}

const CSV_HEADER = 'beneficiaryAccountNumber,beneficiaryAccountName,beneficiaryBankCode,amount,narration';

function encryptCard(publicKey: string, pan = '4111111111111111'): string {
	return publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(`${pan}|12|30|123`)).toString(
		'base64',
	);
}

const transferBase = (reference: string) => ({ businessId: BUSINESS, reference, narration: 'drill', beneficiaryAccountName: 'Drill Beneficiary' });

/** A way an operation moves money in the drill: its name and sample inputs (the operation and its path come from the registry). */
type Sample = Omit<MoneyOp, 'path' | 'op'>;

/**
 * The drill's sample inputs of each money-moving operation, by operation id
 * (`resource:value`), one entry per way it moves money. Test data only: which
 * operations move money, and where their calls go, is read from the
 * operation registry (MONEY_OPS below); an operation without samples is
 * listed in UNDRILLED (and fails test/unit/shared/moneyMoving.answers.test.ts).
 */
const SAMPLES: Record<string, Sample[]> = {
	'payout:createTransfer': [
		{
			name: 'bank transfer',
			params: (reference, i, variant) => {
				const amount = 100 + i + (variant ? 0.5 : 0);
				const account = variant ? '0123400001' : '9999991112';
				return {
					raw: { ...transferBase(reference), transferType: 'WALLET_TO_BANK_ACCOUNT', amount, currency: 'NGN', countryCode: 'NG', beneficiaryBankCode: '044', beneficiaryAccountNumber: account },
					intent: { reference, kind: 'transfer', amount, account },
				};
			},
		},
		{
			name: 'momo transfer',
			params: (reference, i, variant) => {
				const amount = 50 + i + (variant ? 0.25 : 0);
				const account = variant ? '+254700000099' : '+254700000000';
				return {
					raw: { ...transferBase(reference), transferType: 'WALLET_TO_MOMO', amount, currency: 'KES', countryCode: 'KE', momoNetwork: 'MPESA_KE', beneficiaryPhoneNumber: account },
					intent: { reference, kind: 'transfer', amount, account },
				};
			},
		},
		{
			name: 'EFT transfer',
			params: (reference, i, variant) => {
				const amount = 70 + i + (variant ? 1 : 0);
				const account = variant ? '62000000099' : '62000000001';
				return {
					raw: { ...transferBase(reference), transferType: 'WALLET_TO_EFT', amount, currency: 'ZAR', countryCode: 'ZA', eftBank: '250655', beneficiaryAccountNumber: account },
					intent: { reference, kind: 'transfer', amount, account },
				};
			},
		},
	],
	'payout:bulkTransfer': [
		{
			name: 'bulk transfer',
			params: (reference, i, variant) => {
				const rows = [
					{ account: variant ? '0123400002' : '9999991112', amount: 10 + i },
					{ account: '0123456789', amount: 20 + i + (variant ? 1 : 0) },
				];
				const csv = `${CSV_HEADER}\n${rows.map((r) => `${r.account},Row,044,${r.amount},drill`).join('\n')}\n`;
				return {
					raw: { source: 'binary', binaryPropertyName: 'data', businessId: BUSINESS, currency: 'NGN', reference },
					intent: { reference, kind: 'bulk', amount: rows.reduce((s, r) => s + r.amount, 0), rows },
					binary: csv,
				};
			},
		},
	],
	'payin:chargeCard': [
		{
			name: 'card charge',
			setup: async (env) => {
				env.publicKey ??= await new SandboxClient(env.url).publicKey();
			},
			params: (reference, i, variant, env) => {
				const amount = 200 + i + (variant ? 3 : 0);
				return {
					raw: { businessId: BUSINESS, cardData: encryptCard(env.publicKey!), amount, currency: 'NGN', reference, customerName: 'Ada Obi', customerEmail: 'ada@example.com', additionalFields: {} },
					intent: { reference, kind: 'payin', amount },
				};
			},
		},
	],
	'payin:chargeTokenizedCard': [
		{
			name: 'tokenized charge',
			setup: async (env) => {
				const client = await moneyClient(env.url);
				const link = await client.request<IDataObject>({
					method: 'POST',
					path: '/api/v1/card-tokenization-links',
					body: { businessId: BUSINESS, customer: { name: 'Ada Obi', email: 'ada@example.com' }, merchantReference: `drill-link-${Date.now()}-${Math.random().toString(36).slice(2)}` },
				});
				const done = await new SandboxClient(env.url).submitLink(String(link.id), { cardNumber: '4111111111111111', expiry: '12/30', cvv: '123' });
				env.cardTokenId = String(done.link.cardTokenId ?? done.cardTokenId);
			},
			params: (reference, i, variant, env) => {
				const amount = 300 + i + (variant ? 7 : 0);
				return {
					raw: { businessId: BUSINESS, cardTokenId: env.cardTokenId!, amount, reference, additionalFields: {} },
					intent: { reference, kind: 'payin', amount },
				};
			},
		},
	],
	'payin:mobileMoneyCollection': [
		{
			name: 'momo collection',
			params: (reference, i, variant) => {
				const amount = 40 + i + (variant ? 2 : 0);
				const phone = variant ? '+254700000077' : '+254700000000';
				return {
					raw: { businessId: BUSINESS, momoNetwork: 'MPESA_KE', amount, reference, customerName: 'Ada Obi', customerEmail: 'ada@example.com', customerPhone: phone, additionalFields: {} },
					intent: { reference, kind: 'payin', amount, account: phone },
				};
			},
		},
	],
	'payin:eftPayment': [
		{
			name: 'EFT payin',
			params: (reference, i, variant) => {
				const amount = 60 + i + (variant ? 4 : 0);
				return {
					raw: { businessId: BUSINESS, bank: '250655', amount, reference, customerName: 'Ada Obi', customerEmail: 'ada@example.com', additionalFields: {} },
					intent: { reference, kind: 'payin', amount },
				};
			},
		},
	],
};

/** The operations that move money, from the registry (the list the node loads). */
const moneyMoving: NodeOperation[] = resources.flatMap((r) => r.operations).filter(movesMoney);

/**
 * Every money-moving operation of the registry x its samples, the call's
 * path read from its declaration (`moneyCall`): payouts first, as the drill
 * always ran them.
 */
export const MONEY_OPS: MoneyOp[] = [...moneyMoving]
	.sort((a, b) => Number(a.money?.direction === 'in') - Number(b.money?.direction === 'in'))
	.flatMap((op) => (SAMPLES[operationId(op)] ?? []).map((sample) => ({ ...sample, op, path: op.moneyCall?.path ?? '' })));

/** Money-moving operations of the registry the drill has no sample input for (each must be drilled). */
export const UNDRILLED: string[] = moneyMoving.map(operationId).filter((id) => !SAMPLES[id]?.length);

export interface OpResult {
	json?: IDataObject;
	error?: { message: string; description: string; outcome?: string };
}

/** Parses the parameters like the node and runs the handler; errors become error results (continueOnFail). */
export async function runOp(client: PayOnUsClient, op: MoneyOp, raw: IDataObject, binary?: string): Promise<OpResult> {
	const parsed = op.op.schema.safeParse(raw);
	if (!parsed.success) throw new Error(`${op.name}: bad drill parameters: ${parsed.error.message}`);
	const ctx: OperationContext = {
		client,
		itemIndex: 0,
		item: {},
		getBinary: async () => ({ data: Buffer.from(binary ?? '', 'utf8'), fileName: 'drill.csv' }),
	};
	try {
		return { json: (await op.op.execute(ctx, parsed.data)) as IDataObject };
	} catch (error) {
		const e = error as Error & { description?: string; context?: IDataObject };
		return { error: { message: e.message, description: String(e.description ?? ''), outcome: e.context?.outcome as string | undefined } };
	}
}

const near = (a: unknown, b: number) => typeof a === 'number' && Math.abs(a - b) <= 0.005;
const digits = (s: unknown) => String(s ?? '').replace(/\D/g, '');

export interface Ledger {
	transfers: IDataObject[];
	payins: IDataObject[];
}

export async function ledger(url: string): Promise<Ledger> {
	const l = await new SandboxClient(url).ledger();
	return { transfers: l.transfers as IDataObject[], payins: l.payins as IDataObject[] };
}

/** The ledger's movements for one intent: transfers or payins with its reference (a bulk: its rows). */
export function movementsOf(l: Ledger, intent: Intent): IDataObject[] {
	if (intent.kind === 'bulk') return l.transfers.filter((t) => t.bulkReference === intent.reference && t.businessId === BUSINESS);
	const list = intent.kind === 'transfer' ? l.transfers : l.payins;
	return list.filter((r) => (r.merchantReference ?? r.reference) === intent.reference && r.businessId === BUSINESS);
}

/** True when the ledger's movements ARE the intent (same amount, account; a bulk: every row). */
export function ledgerMatches(movements: IDataObject[], intent: Intent): boolean {
	if (intent.kind === 'bulk') {
		const rows = intent.rows ?? [];
		if (movements.length !== rows.length) return false;
		const unused = [...movements];
		for (const r of rows) {
			const at = unused.findIndex((t) => t.beneficiaryAccountNumber === r.account && near(t.amount, r.amount));
			if (at === -1) return false;
			unused.splice(at, 1);
		}
		return true;
	}
	if (movements.length !== 1) return false;
	const m = movements[0];
	if (!near(m.amount, intent.amount)) return false;
	if (intent.account !== undefined) {
		const acc = intent.kind === 'transfer' ? m.beneficiaryAccountNumber : m.mobileNumber;
		if (digits(acc) !== digits(intent.account)) return false;
	}
	return true;
}

/** A success output equals the ledger's record: same onusReference(s), and the ledger's record is the intent. */
export function successMatchesLedger(json: IDataObject, movements: IDataObject[], intent: Intent): boolean {
	if (!ledgerMatches(movements, intent)) return false;
	if (intent.kind === 'bulk') {
		const out = Array.isArray(json.transfers) ? (json.transfers as IDataObject[]) : [];
		const ledgerRefs = new Set(movements.map((m) => m.onusReference));
		return out.length === movements.length && out.every((t) => ledgerRefs.has(t.onusReference));
	}
	return json.onusReference === movements[0].onusReference;
}

export type Fault = 'none' | 'drop-after-20' | 'drop-after-50' | '503-before' | 'reused-reference';
export const FAULTS: Fault[] = ['drop-after-20', 'drop-after-50', '503-before', 'reused-reference'];
/** The faults of the answer-shapes drill (each under every answer-shape profile, sandbox/answerShapes.ts). */
export const SHAPE_FAULTS: Fault[] = ['none', 'drop-after-20', '503-before', 'reused-reference'];

export interface CellResult {
	op: string;
	profile: string;
	fault: Fault;
	intended: number;
	movements: number;
	exact: number;
	extraMovements: number;
	/** Intended movements that moved more than once (a bulk: more transfers than rows). */
	doubleMovements: number;
	successes: number;
	falseSuccesses: number;
	unknown: number;
	unknownWithoutReference: number;
	errors: number;
	newReferenceAdvice: number;
	details: string[];
}

/**
 * One cell: `count` movements of `op` under the sandbox's current profile
 * with `fault`. Resets the sandbox first (profiles survive a reset).
 */
const trace = (m: string) => {
	if (process.env.MONEY_TRACE) process.stderr.write(`${m}\n`);
};

export async function runCell(url: string, op: MoneyOp, profile: string, fault: Fault, count: number, tag: string): Promise<CellResult> {
	trace(`cell ${op.name} ${profile} ${fault}`);
	const sandbox = new SandboxClient(url);
	await sandbox.reset();
	// A reset retires every access token: start with a fresh token cache
	// (the drill's sandbox allows many token calls a minute, so does the cache).
	tokenCache.reset();
	tokenCache.configure({ limits: { callsPerWindow: 1_000_000 } });
	trace('reset');
	const env: DrillEnv = { url };
	await op.setup?.(env);
	trace('setup');
	const client = await moneyClient(url);
	trace('client');
	const refs = Array.from({ length: count }, (_, i) => `${tag}-${i + 1}`);
	// Reused reference: an earlier, different movement holds each reference.
	const earlier = new Map<string, IDataObject[]>();
	if (fault === 'reused-reference') {
		for (let i = 0; i < count; i++) {
			const p = op.params(refs[i], i, 1, env);
			trace(`earlier ${refs[i]}`);
			const r = await runOp(client, op, p.raw, p.binary);
			if (r.error) throw new Error(`${op.name}: could not create the earlier movement: ${r.error.message}`);
		}
		const l = await ledger(url);
		for (let i = 0; i < count; i++) earlier.set(refs[i], movementsOf(l, op.params(refs[i], i, 1, env).intent));
	}
	await sandbox.clearFaults();
	if (fault === 'drop-after-20' || fault === 'drop-after-50') {
		await sandbox.addFault({ method: 'POST', path: op.path, rate: fault === 'drop-after-20' ? 0.2 : 0.5, seed: 7, dropAfterProcessing: true });
	} else if (fault === '503-before' || fault === 'reused-reference') {
		// Every second call (deterministic: a seeded rate let the first calls of a small cell all pass).
		await sandbox.addFault({ method: 'POST', path: op.path, status: 503, message: 'Service unavailable', every: 2 });
	}
	const results: Array<{ intent: Intent; result: OpResult }> = [];
	for (let i = 0; i < count; i++) {
		const p = op.params(refs[i], i, 0, env);
		trace(`item ${p.intent.reference}`);
		results.push({ intent: p.intent, result: await runOp(client, op, p.raw, p.binary) });
	}
	await sandbox.clearFaults();
	const l = await ledger(url);
	const cell: CellResult = {
		op: op.name,
		profile,
		fault,
		intended: fault === 'reused-reference' ? 0 : count,
		movements: 0,
		exact: 0,
		extraMovements: 0,
		doubleMovements: 0,
		successes: 0,
		falseSuccesses: 0,
		unknown: 0,
		unknownWithoutReference: 0,
		errors: 0,
		newReferenceAdvice: 0,
		details: [],
	};
	for (const { intent, result } of results) {
		const all = movementsOf(l, intent);
		const before = earlier.get(intent.reference) ?? [];
		const mine = all.filter((m) => !before.some((b) => b.onusReference === m.onusReference));
		const movementUnits = intent.kind === 'bulk' ? (mine.length > 0 ? mine.length / (intent.rows?.length ?? 1) : 0) : mine.length;
		if (mine.length > (intent.kind === 'bulk' ? (intent.rows?.length ?? 1) : 1)) cell.doubleMovements++;
		if (fault === 'reused-reference') cell.extraMovements += movementUnits;
		else {
			cell.movements += movementUnits;
			if (ledgerMatches(mine, intent)) cell.exact++;
		}
		if (result.json) {
			cell.successes++;
			const ok = fault !== 'reused-reference' && successMatchesLedger(result.json, mine, intent);
			if (!ok) {
				cell.falseSuccesses++;
				if (cell.details.length < 5) cell.details.push(`false success ${intent.reference}: ${JSON.stringify(result.json).slice(0, 200)}`);
			}
		} else if (result.error) {
			const text = `${result.error.message} ${result.error.description}`;
			if (/new,? (unique )?reference|another reference|different reference/i.test(text) && !/not (use|send).*(new|another)/i.test(text)) cell.newReferenceAdvice++;
			if (result.error.outcome === 'unknown') {
				cell.unknown++;
				if (!text.includes(intent.reference)) cell.unknownWithoutReference++;
				if (cell.details.length < 5) cell.details.push(`unknown ${intent.reference}: ${result.error.message}`);
			} else {
				cell.errors++;
				if (fault !== 'reused-reference' && cell.details.length < 5) cell.details.push(`error ${intent.reference}: ${result.error.message}`);
			}
		}
	}
	return cell;
}

/** A drill's command line: `--count`, `--ops`, `--profiles`, `--faults` (comma lists; empty: all). */
function drillArg(args: string[], name: string, fallback: string): string {
	return args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
}

/** What a drill ran: its cells, and the operations, profiles and faults it crossed. */
export interface DrillMatrix {
	count: number;
	ops: MoneyOp[];
	profiles: Array<{ name: string; profiles: ProfileName[] }>;
	faults: Fault[];
	cells: CellResult[];
	started: number;
}

/**
 * Runs every money-moving operation x profile x fault (one cell each, `count`
 * movements) on a sandbox of its own, the one loop of the money drill and the
 * answer-shapes drill (bench/money-drill.bench.ts, bench/answer-shapes.bench.ts).
 */
export async function runDrillMatrix(
	args: string[],
	o: { defaultCount: number; profiles: Array<{ name: string; profiles: ProfileName[] }>; faults: Fault[]; tag: string; label: string },
): Promise<DrillMatrix> {
	const count = Number(drillArg(args, 'count', String(o.defaultCount)));
	const opNames = drillArg(args, 'ops', '');
	const profileNames = drillArg(args, 'profiles', '');
	const faultNames = drillArg(args, 'faults', '');
	if (UNDRILLED.length > 0) console.warn(`  not drilled (no sample input in dev/moneyDrill.ts SAMPLES): ${UNDRILLED.join(', ')}`);
	const ops = opNames ? MONEY_OPS.filter((op) => opNames.split(',').some((n) => op.name.toLowerCase().startsWith(n.toLowerCase()))) : MONEY_OPS;
	const profiles = profileNames ? o.profiles.filter((p) => profileNames.split(',').includes(p.name)) : o.profiles;
	const faults = (faultNames ? faultNames.split(',') : o.faults) as Fault[];
	const handle = await startSandbox({
		port: 0,
		config: { tokenCallsPerMinute: 1_000_000, transferDelayMs: 2, momoAutoDelayMs: 2, requestLogLimit: 100 },
	});
	const cells: CellResult[] = [];
	const started = Date.now();
	try {
		for (const profile of profiles) {
			await new SandboxClient(handle.url).setProfiles(profile.profiles);
			for (const op of ops) {
				for (const fault of faults) {
					const tag = `${o.tag}-${profile.name}-${op.name.replace(/\W/g, '')}-${fault}-${Date.now().toString(36)}`;
					cells.push(await runCell(handle.url, op, profile.name, fault, count, tag));
				}
			}
			console.log(`  ${o.label} ${profile.name}: done (${((Date.now() - started) / 1000).toFixed(1)} s)`);
		}
	} finally {
		await handle.stop();
	}
	return { count, ops, profiles, faults, cells, started };
}
