/**
 * Issue 14, the colleague's stub server: a service that answers within the
 * spec but unlike our sandbox (caps pages at 30, lists oldest first,
 * ignores the undocumented merchantReference/businessId filters, names bulk
 * rows its own way, records without businessId). Through the real
 * transport (n8n-core's request helpers) and the operations' handlers.
 * Each test fails on f732b35.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import { PayOnUsApi } from '../../../credentials/PayOnUsApi.credentials';
import { createClient } from '../../../nodes/shared/transport';
import { tokenCache } from '../../../nodes/shared/accessToken/cache';
import { collectPages } from '../../../nodes/shared/api';
import { findByReference, transfersOf } from '../../../nodes/shared/moneyMoving';
import { createTransfer } from '../../../nodes/PayOnUs/resources/payout/createTransfer';
import { bulkTransfer } from '../../../nodes/PayOnUs/resources/payout/bulkTransfer';
import type { OperationContext } from '../../../nodes/PayOnUs/resources/types';
import { CredentialStore, FakeN8n, sandboxCredential } from '../../../dev/inProcessN8n';

interface Stub {
	cap: number;
	transfers: IDataObject[];
	/** What the next POSTs do: 'ok' (create), 'drop-after', '503-before', or a function. */
	posts: Array<'ok' | 'drop-after' | '503-before' | 'envelope-409'>;
	postCount: number;
	gets: string[];
	/** Transfers created from now on are not listed by GET (the service's list lags, or the lookup cannot see them). */
	hideNew?: boolean;
}

let server: Server;
let url: string;
let stub: Stub;
let seq = 0;

function send(res: import('node:http').ServerResponse, status: number, body: unknown) {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

/** Records as the spec's transfer table: no businessId, no bulkReference. */
function transfer(reference: string, amount: number, account: string, created: string): IDataObject {
	return {
		onusReference: `ONUS-TRNF-${String(++seq).padStart(13, '0')}-23112026-120000`,
		merchantReference: reference,
		amount,
		fee: 10.75,
		currency: 'NGN',
		beneficiaryAccountNumber: account,
		beneficiaryAccountName: 'Ann',
		bankCode: '044',
		paymentStatus: 'PENDING',
		transferType: 'WALLET_TO_BANK_ACCOUNT',
		narration: 'x',
		createdDate: created,
		lastUpdatedDate: created,
	};
}

function stamp(n: number): string {
	return `2026-11-23 10:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}`;
}

beforeAll(async () => {
	server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const u = new URL(req.url ?? '/', 'http://x');
			const body = Buffer.concat(chunks).toString('utf8');
			if (u.pathname === '/api/v1/access-token') {
				send(res, 200, { status: 200, message: 'ok', data: { access_token: 'stub-token', token_type: 'Bearer', expires_in: 86399 } });
				return;
			}
			if (req.method === 'GET' && u.pathname === '/api/v1/transfer-requests') {
				stub.gets.push(u.search);
				// Honours merchantId and onusReference only (the documented ones); oldest first; pages capped.
				const onus = u.searchParams.get('onusReference');
				const all = stub.transfers.filter((t) => !t.hidden && (!onus || t.onusReference === onus));
				const pageNo = Number(u.searchParams.get('pageNo') ?? 1);
				const size = Math.min(Number(u.searchParams.get('pageSize') ?? 30), stub.cap);
				send(res, 200, {
					status: 200,
					message: 'ok',
					data: { pageNo, pageSize: size, lastPage: Math.max(1, Math.ceil(all.length / size)), totalNumberOfItems: all.length, content: all.slice((pageNo - 1) * size, pageNo * size) },
				});
				return;
			}
			if (req.method === 'POST') {
				const mode = stub.posts[stub.postCount++] ?? 'ok';
				if (mode === '503-before') {
					send(res, 503, { status: 503, message: 'Service unavailable', data: { statusCode: 503, errors: [] } });
					return;
				}
				let created: IDataObject[] = [];
				if (u.pathname.endsWith('/bulk/bank-transfer')) {
					const batch = /name="reference"\r\n\r\n([^\r]+)/.exec(body)?.[1] ?? '';
					if (stub.transfers.some((t) => t.batch === batch)) {
						send(res, 409, { status: 409, message: 'Duplicate reference', data: { statusCode: 409, errors: [] } });
						return;
					}
					const csv = /filename="[^"]*"\r\nContent-Type: text\/csv\r\n\r\n([\s\S]*?)\r\n--/.exec(body)?.[1] ?? '';
					const rows = csv.trim().split('\n').slice(1).map((l) => l.split(','));
					// Rows named the service's way, not <batch>-<n>.
					created = rows.map((r) => ({ ...transfer(`ROW-${++seq}`, Number(r[3]), r[0], stamp(seq)), batch }));
					stub.transfers.push(...created);
					if (mode === 'drop-after') {
						res.socket?.destroy();
						return;
					}
					send(res, 200, { status: 200, message: 'ok', data: { reference: batch, totalCount: created.length, transfers: created.map(({ batch: _b, ...t }) => t) } });
					return;
				}
				const b = JSON.parse(body) as IDataObject;
				if (mode === 'envelope-409') {
					// HTTP 200 carrying an error envelope.
					send(res, 200, { status: 409, message: 'Duplicate reference', data: { statusCode: 409, errors: [] } });
					return;
				}
				if (stub.transfers.some((t) => t.merchantReference === b.reference)) {
					send(res, 409, { status: 409, message: 'Duplicate reference', data: { statusCode: 409, errors: [] } });
					return;
				}
				const t = transfer(String(b.reference), Number(b.amount), String(b.beneficiaryAccountNumber), stamp(++seq));
				stub.transfers.push(stub.hideNew ? { ...t, hidden: true } : t);
				if (mode === 'drop-after') {
					res.socket?.destroy();
					return;
				}
				send(res, 200, { status: 200, message: 'ok', data: { paymentStatus: 'PENDING', currency: 'NGN', amount: t.amount, fee: t.fee, onusReference: t.onusReference, merchantReference: t.merchantReference } });
				return;
			}
			send(res, 404, { status: 404, message: 'not found', data: { statusCode: 404, errors: [] } });
		});
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	server.closeAllConnections();
	await new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
	stub = { cap: 30, transfers: [], posts: [], postCount: 0, gets: [] };
	tokenCache.reset();
	tokenCache.configure({ clock: { now: () => Date.now(), sleep: async () => {} } });
});

async function client() {
	const n8n = new FakeN8n(new CredentialStore(sandboxCredential(url)), new PayOnUsApi());
	return await createClient(n8n.context() as never, { sleep: async () => {}, timeoutMs: 2000 });
}

function ctx(c: Awaited<ReturnType<typeof client>>, csv?: string): OperationContext {
	return { client: c, itemIndex: 0, item: {}, getBinary: async () => ({ data: Buffer.from(csv ?? '', 'utf8') }) };
}

const bank = (reference: string, amount = 100, account = '9999991112') => {
	const r = createTransfer.schema.safeParse({
		transferType: 'WALLET_TO_BANK_ACCOUNT',
		businessId: 'BUS-2001',
		amount,
		currency: 'NGN',
		countryCode: 'NG',
		reference,
		beneficiaryBankCode: '044',
		beneficiaryAccountNumber: account,
		beneficiaryAccountName: 'Ann',
		narration: 'x',
	});
	if (!r.success) throw new Error(r.error.message);
	return r.data;
};

function seedTransfers(n: number) {
	for (let i = 0; i < n; i++) stub.transfers.push(transfer(`old-${i}`, 10 + i, '0123456789', stamp(i)));
}

const errorOf = async (p: Promise<unknown>) => (await p.then(() => undefined, (e: unknown) => e)) as Error & { description?: string; context?: IDataObject };

describe('paging (issue 14 point 4): a service capping pages at 30', () => {
	it('Return All reads all 90 records although every page is shorter than the 100 asked', async () => {
		seedTransfers(90);
		const c = await client();
		const out = await c.paginate({ path: '/api/v1/transfer-requests', qs: { merchantId: 'MER-1001' }, style: 'fromOne', returnAll: true });
		expect(out).toHaveLength(90);
		expect(new Set(out.map((r) => r.onusReference)).size).toBe(90);
		expect(stub.gets).toHaveLength(3);
	});

	it('a Limit above one capped page still gets the Limit', async () => {
		seedTransfers(90);
		const c = await client();
		expect(await c.paginate({ path: '/api/v1/transfer-requests', qs: { merchantId: 'MER-1001' }, style: 'fromOne', returnAll: false, limit: 75 })).toHaveLength(75);
	});

	it('the walker used by the poll trigger (collectPages) follows totalElements/totalPages of the prose shape', async () => {
		const records = Array.from({ length: 90 }, (_, i) => ({ id: `r${i}` }));
		const out = await collectPages(async (_p, qs) => {
			const page = Number(qs.page);
			return { content: records.slice(page * 30, page * 30 + 30), page, size: 30, totalElements: 90, totalPages: 3 };
		}, { path: '/api/v1/payment-requests', style: 'zeroBased', pageSize: 100, maxPages: 10 });
		expect(out).toHaveLength(90);
	});

	it('the lookup finds a record on the last page of an oldest-first, capped, unfiltered list', async () => {
		seedTransfers(89);
		stub.transfers.push(transfer('mine', 100, '9999991112', stamp(500)));
		const c = await client();
		const found = await findByReference(c, transfersOf('MER-1001'), 'BUS-2001', 'mine');
		expect(found?.merchantReference).toBe('mine');
	});
});

describe('single transfers (issue 14 points 1 and 2)', () => {
	it('a lost answer, a lookup on an oldest-first capped list: the transfer is found, not sent again', async () => {
		seedTransfers(80);
		stub.posts = ['drop-after'];
		const c = await client();
		const out = (await createTransfer.execute(ctx(c), bank('pay-1'))) as IDataObject;
		expect(out.recoveredByLookup).toBe(true);
		expect(out.merchantReference).toBe('pay-1');
		expect(stub.postCount).toBe(1);
		expect(stub.transfers.filter((t) => t.merchantReference === 'pay-1')).toHaveLength(1);
	});

	it('reused reference + 503 before processing: the OLDER transfer (other amount and account) is not returned as this one', async () => {
		stub.transfers.push(transfer('pay-2', 999, '0123400001', stamp(1)));
		stub.posts = ['503-before'];
		const c = await client();
		const error = await errorOf(createTransfer.execute(ctx(c), bank('pay-2', 100)));
		expect(error).toBeInstanceOf(Error);
		expect(error.message).toMatch(/Reference "pay-2" belongs to an earlier, different transfer .*nothing was sent for this item/);
		expect(error.description).toContain('999');
		expect(error.description).toContain('NGN 100 to 9999991112');
		expect(error.context?.outcome).toBe('differentOwner');
		expect(stub.postCount).toBe(1);
	});

	it('a lost answer the lookup cannot see, then 409 on the resend: "outcome unknown", never "use a new reference"', async () => {
		stub.posts = ['drop-after'];
		stub.hideNew = true;
		const c = await client();
		const error = await errorOf(createTransfer.execute(ctx(c), bank('pay-3')));
		expect(error.message).toMatch(/Outcome unknown for reference "pay-3"/);
		expect(error.description).toMatch(/409/);
		expect(error.description).toMatch(/Get Transfer|ledger|dashboard/);
		expect(`${error.message} ${error.description}`).not.toMatch(/new,? (unique )?reference/i);
		expect(stub.postCount).toBe(2);
		expect(stub.transfers.filter((t) => t.merchantReference === 'pay-3')).toHaveLength(1);
	});

	it('a 409 on a first attempt whose holder the lookup cannot find: a duplicate reference, check that earlier use', async () => {
		stub.transfers.push({ ...transfer('pay-4', 100, '9999991112', stamp(1)), hidden: true });
		const c = await client();
		const error = await errorOf(createTransfer.execute(ctx(c), bank('pay-4')));
		expect(error.message).toBe('Reference "pay-4" was already used for this business');
		expect(error.description).toMatch(/PayOnUs refused it as a duplicate and nothing was sent again/);
		expect(error.description).toMatch(/Check the outcome of that earlier use/);
		expect(`${error.message} ${error.description}`).not.toMatch(/new,? (unique )?reference/i);
		expect(stub.postCount).toBe(1);
	});
});

describe('an error inside a 200 envelope', () => {
	it('a 409 envelope after a lost answer is resolved like an HTTP 409: outcome unknown when the lookup sees nothing', async () => {
		stub.posts = ['drop-after', 'envelope-409'];
		stub.hideNew = true;
		const c = await client();
		const error = await errorOf(createTransfer.execute(ctx(c), bank('pay-5')));
		expect(error.context?.outcome).toBe('unknown');
		expect(error.message).toMatch(/Outcome unknown for reference "pay-5"/);
		expect(stub.postCount).toBe(2);
	});
});

describe('bulk (issue 14 point 3): rows named otherwise, records without batch fields', () => {
	const csv = 'beneficiaryAccountNumber,beneficiaryAccountName,beneficiaryBankCode,amount,narration\n9999991112,Ann,044,100,x\n0123456789,Bo,058,200,x\n';
	const input = () => {
		const r = bulkTransfer.schema.safeParse({ source: 'binary', binaryPropertyName: 'data', businessId: 'BUS-2001', currency: 'NGN', reference: 'batch-9' });
		if (!r.success) throw new Error(r.error.message);
		return r.data;
	};

	it('a batch whose answer is lost is sent ONCE and fails as outcome unknown', async () => {
		stub.posts = ['drop-after', 'drop-after', 'drop-after', 'drop-after'];
		const c = await client();
		const error = await errorOf(bulkTransfer.execute(ctx(c, csv), input()));
		expect(stub.postCount).toBe(1);
		expect(stub.transfers).toHaveLength(2);
		expect(error.message).toMatch(/Outcome unknown for reference "batch-9"/);
		expect(`${error.message} ${error.description}`).not.toMatch(/new,? (unique )?reference/i);
	});

	it('a batch answered 503 is not resent either', async () => {
		stub.posts = ['503-before', 'ok'];
		const c = await client();
		const error = await errorOf(bulkTransfer.execute(ctx(c, csv), input()));
		expect(stub.postCount).toBe(1);
		expect(error.context?.outcome).toBe('unknown');
	});
});

describe('no error text advises a new reference for money that may have moved', () => {
	function files(dir: string): string[] {
		return readdirSync(dir).flatMap((f) => {
			const p = join(dir, f);
			return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
		});
	}
	it('greps nodes/ (tokenization links move no money and are exempt)', () => {
		const offenders: string[] = [];
		for (const f of files(join(__dirname, '../../../nodes'))) {
			if (f.includes('cardTokenization')) continue;
			const text = readFileSync(f, 'utf8');
			for (const m of text.matchAll(/[^\n]*(new,? (unique )?reference|another reference|a different reference)[^\n]*/gi)) offenders.push(`${f}: ${m[0].trim()}`);
		}
		expect(offenders).toEqual([]);
	});
});
