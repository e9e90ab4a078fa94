/**
 * Card tokenization operations in a real n8n against the sandbox: links
 * (create, get, search), card tokens (search, delete twice), the spec's
 * errors as plain messages, and no card data in any output.
 */
import type { IDataObject } from 'n8n-workflow';
import { nodeItems } from '../harness/e2e';
import { useSandboxAndN8n } from '../harness/sandboxAndN8n';
import { business, NODE, payOnUsWorkflow } from '../../dev/workflows';

const CARD = '4111111111111111';

describe('PayOnUs card tokenization operations in n8n', () => {
	const e2e = useSandboxAndN8n('card', { clearRequestsBeforeEach: true });
	const stamp = Date.now().toString(36);
	const refA = `e2e-card-a-${stamp}`;
	const refB = `e2e-card-b-${stamp}`;
	let linkA: IDataObject;
	let tokenId: string;

	async function run(name: string, parameters: IDataObject, items: IDataObject[]) {
		return await e2e.runWorkflow(
			payOnUsWorkflow(name, e2e.credentialId, { resource: 'cardTokenization', ...parameters }, items.map((json) => ({ json })), { continueOnFail: true }),
		);
	}

	it('creates links, explains 403 / 409, refuses bad fields before sending', async () => {
		const good = { businessId: 'BUS-2001', ref: refA, name: 'Ada Obi', email: 'ada@example.com', phone: '+2348012345678', expiry: 60 };
		const execution = await run(
			'card e2e: create links',
			{
				operation: 'createLink',
				businessId: business('={{ $json.businessId }}'),
				merchantReference: '={{ $json.ref }}',
				customerName: '={{ $json.name }}',
				customerEmail: '={{ $json.email }}',
				additionalFields: { customerPhone: '={{ $json.phone }}', expiryMinutes: '={{ $json.expiry }}', customerExternalId: 'CUST-1' },
			},
			[
				good,
				{ ...good, ref: refB, phone: '', expiry: '' },
				{ ...good, businessId: 'BUS-2003', ref: `e2e-card-c-${stamp}` },
				{ ...good, ref: refA },
				{ ...good, ref: `e2e-card-d-${stamp}`, expiry: 1441 },
				{ ...good, ref: `e2e-card-e-${stamp}`, email: 'ada-at-example' },
				{ ...good, ref: 'r'.repeat(101) },
				{ ...good, ref: `e2e-card-f-${stamp}`, phone: '08012345678' },
				{ ...good, ref: `e2e-card-g-${stamp}`, name: '' },
			],
		);
		const out = nodeItems(execution, NODE);
		expect(out).toHaveLength(9);
		linkA = out[0];
		expect(out[0]).toMatchObject({ status: 'PENDING', merchantReference: refA, businessId: 'BUS-2001' });
		expect(String(out[0].url)).toMatch(/^http/);
		expect(out[1]).toMatchObject({ status: 'PENDING', merchantReference: refB });
		expect(out[2].error).toContain('Card tokenization is not enabled for business BUS-2003');
		expect(out[3].error).toContain(`Merchant reference "${refA}" already used by link ${String(out[0].id)} (status PENDING)`);
		expect(out[4].error).toContain('"Expiry Minutes" must be at most 1440 minutes (24 hours)');
		expect(out[5].error).toContain('"Customer Email" must be an e-mail address');
		expect(out[6].error).toContain('"Merchant Reference" must be at most 100 characters');
		expect(out[7].error).toContain('"Customer Phone" must be in international format');
		expect(out[8].error).toContain('"Customer Name" is required');

		const requests = await e2e.sb.requests();
		// With Money-Moving Concurrency above 1 two items go at a time: the
		// order of the first creations is not fixed; what was sent is.
		const creations = requests.filter((r) => r.method === 'POST');
		expect(creations.map((r) => [r.path, r.status]).sort()).toEqual([
			['/api/v1/card-tokenization-links', 200],
			['/api/v1/card-tokenization-links', 200],
			['/api/v1/card-tokenization-links', 403],
			['/api/v1/card-tokenization-links', 409],
		]);
		expect(requests.filter((r) => r.method !== 'POST').map((r) => [r.method, r.path, r.status])).toEqual([
			['GET', `/api/v1/card-tokenization-links/by-reference/${refA}`, 200],
		]);
		const sentFor = (ref: string) => creations.filter((r) => (r.body as IDataObject).merchantReference === ref).map((r) => r.body);
		expect(sentFor(refA)).toHaveLength(2);
		expect(sentFor(refA)[0]).toEqual({
			businessId: 'BUS-2001',
			customer: { name: 'Ada Obi', email: 'ada@example.com', phone: '+2348012345678', externalId: 'CUST-1' },
			merchantReference: refA,
			expiryMinutes: 60,
		});
		expect(sentFor(refB)).toEqual([
			{
				businessId: 'BUS-2001',
				customer: { name: 'Ada Obi', email: 'ada@example.com', externalId: 'CUST-1' },
				merchantReference: refB,
			},
		]);
	});

	it('gets a link by id and by reference; explains 404', async () => {
		const execution = await run(
			'card e2e: get links',
			{
				operation: 'getLink',
				businessId: business('BUS-2001'),
				by: '={{ $json.by }}',
				linkId: '={{ $json.id }}',
				merchantReference: '={{ $json.ref }}',
			},
			[
				{ by: 'id', id: linkA.id },
				{ by: 'merchantReference', ref: refB },
				{ by: 'id', id: 'LNK-NOPE' },
				{ by: 'id', id: '' },
			],
		);
		const out = nodeItems(execution, NODE);
		expect(out[0]).toMatchObject({ id: linkA.id, merchantReference: refA, status: 'PENDING' });
		expect(out[1]).toMatchObject({ merchantReference: refB });
		expect(out[2].error).toContain('No tokenization link with ID "LNK-NOPE" for business BUS-2001');
		expect(out[3].error).toContain('"Link ID" is required');
		expect((await e2e.sb.requests()).map((r) => [r.path, r.query])).toEqual([
			[`/api/v1/card-tokenization-links/${String(linkA.id)}`, { businessId: 'BUS-2001' }],
			[`/api/v1/card-tokenization-links/by-reference/${refB}`, { businessId: 'BUS-2001' }],
			['/api/v1/card-tokenization-links/LNK-NOPE', { businessId: 'BUS-2001' }],
		]);
	});

	it('searches links and tokens with the spec filters, with no card data in the output', async () => {
		await e2e.sb.submitLink(String(linkA.id), { cardNumber: CARD, expiry: '12/30', cvv: '123' });
		await e2e.sb.clearRequests();
		const links = await run(
			'card e2e: search links',
			{
				operation: 'searchLinks',
				merchantId: '',
				returnAll: '={{ $json.all }}',
				limit: 5,
				filters: {
					businessIds: '={{ $json.businessIds }}',
					status: '={{ $json.status }}',
					hasCardToken: '={{ $json.has }}',
					createdFrom: '={{ $json.from }}',
					createdTo: '={{ $json.to }}',
				},
			},
			[
				{ all: true, businessIds: 'BUS-2001', status: 'COMPLETED', has: true, from: '2000-01-01', to: '2100-01-01' },
				{ all: false, businessIds: 'BUS-2001,BUS-2002', status: 'PENDING', has: false, from: '2000-01-01', to: '2100-01-01' },
				{ all: true, businessIds: 'BUS-2001', status: 'DONE', has: true, from: '2000-01-01', to: '2100-01-01' },
				{ all: true, businessIds: 'BUS-2001', status: 'PENDING', has: true, from: '2024-02-30', to: '2100-01-01' },
			],
		);
		const found = nodeItems(links, NODE);
		expect(found[0]).toMatchObject({ id: linkA.id, status: 'COMPLETED' });
		tokenId = String(found[0].cardTokenId);
		expect(tokenId).not.toBe('null');
		expect(found[1]).toMatchObject({ merchantReference: refB, status: 'PENDING', cardTokenId: null });
		expect(found).toHaveLength(4);
		expect(found[2].error).toContain('"Status" must be one of PENDING, COMPLETED, EXPIRED, CANCELLED');
		expect(found[3].error).toContain('"Created From" must be a date written YYYY-MM-DD');
		const queries = (await e2e.sb.requests()).map((r) => r.query as IDataObject);
		expect(queries).toEqual([
			{ merchantId: 'MER-1001', businessIds: 'BUS-2001', createdFrom: '2000-01-01', createdTo: '2100-01-01', status: 'COMPLETED', hasCardToken: 'true', pageNo: '1', pageSize: '100' },
			{ merchantId: 'MER-1001', businessIds: 'BUS-2001,BUS-2002', createdFrom: '2000-01-01', createdTo: '2100-01-01', status: 'PENDING', hasCardToken: 'false', pageNo: '1', pageSize: '5' },
		]);

		await e2e.sb.clearRequests();
		const tokens = await run(
			'card e2e: search tokens',
			{
				operation: 'searchTokens',
				merchantId: '',
				returnAll: true,
				filters: { merchantReference: '={{ $json.ref }}', customerEmail: '={{ $json.email }}' },
			},
			[{ ref: refA, email: 'ada@example.com' }, { ref: refA, email: 'not-mail' }],
		);
		const list = nodeItems(tokens, NODE);
		expect(list[0]).toMatchObject({ id: tokenId, merchantReference: refA, customerEmail: 'ada@example.com' });
		expect(String(list[0].maskedPan)).toMatch(/1111$/);
		expect(list[1].error).toContain('"Customer Email" must be an e-mail address');
		expect(JSON.stringify([found, list])).not.toContain(CARD);
		expect(JSON.stringify([found, list])).not.toMatch(/"cvv"|"cardNumber"/);
		expect((await e2e.sb.requests()).map((r) => r.query)).toEqual([
			{ merchantId: 'MER-1001', merchantReference: refA, customerEmail: 'ada@example.com', pageNo: '1', pageSize: '100' },
		]);
	});

	it('deletes a token, reports the second delete as already deleted, explains 404 and 403', async () => {
		const execution = await run(
			'card e2e: delete tokens',
			// one item at a time: the request log is read in item order below
			{ operation: 'deleteToken', businessId: business('={{ $json.businessId }}'), cardTokenId: '={{ $json.id }}', options: { moneyMovingConcurrency: 1 } },
			[
				{ businessId: 'BUS-2001', id: tokenId },
				{ businessId: 'BUS-2001', id: tokenId },
				{ businessId: 'BUS-2001', id: 'TOK-NOPE' },
				{ businessId: 'BUS-2002', id: tokenId },
				{ businessId: 'BUS-2001', id: '' },
			],
		);
		const out = nodeItems(execution, NODE);
		expect(out[0]).toEqual({ id: tokenId, businessId: 'BUS-2001', deleted: true, alreadyDeleted: false, message: expect.any(String) });
		expect(out[1]).toEqual({ id: tokenId, businessId: 'BUS-2001', deleted: true, alreadyDeleted: true, message: 'Card token already deleted' });
		expect(out[2].error).toContain('No card token "TOK-NOPE" exists for business BUS-2001');
		expect(out[3].error).toContain(`Card token ${tokenId} belongs to another business than BUS-2002`);
		expect(out[4].error).toContain('"Card Token ID" is required');
		expect((await e2e.sb.requests()).map((r) => [r.method, r.path, r.status])).toEqual([
			['DELETE', `/api/v1/card-tokens/${tokenId}`, 200],
			['DELETE', `/api/v1/card-tokens/${tokenId}`, 200],
			['DELETE', '/api/v1/card-tokens/TOK-NOPE', 404],
			['DELETE', `/api/v1/card-tokens/${tokenId}`, 403],
		]);
		const ledger = await e2e.sb.ledger();
		expect((ledger.tokens as IDataObject[]).find((t) => t.id === tokenId)).toMatchObject({ deleted: true });
	});
});
