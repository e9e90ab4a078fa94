/**
 * Issue 14 in a real n8n: lookup, paging and bulk under each sandbox
 * behaviour profile (switched through the control API, one sandbox).
 * Per profile: Create Transfer with answers dropped after processing (each
 * reference once in the ledger, every item a success that is its record),
 * a reused reference (an error naming the earlier transfer, nothing new),
 * Search Transfers Return All over more than one capped page, and a bulk
 * batch whose answer is lost (sent once, "outcome unknown" or recovered).
 */
import type { IDataObject } from 'n8n-workflow';
import { ANSWER_SHAPE_TEST_PROFILES, TEST_PROFILES } from '../../sandbox/profiles';
import { nodeItems } from '../harness/e2e';
import { useSandboxAndN8n } from '../harness/sandboxAndN8n';
import { business, NODE, payOnUsWorkflow } from '../../dev/workflows';

const TRANSFER = '/api/v1/transfer-requests/bank-transfer';
const BULK = '/api/v1/transfer-requests/bulk/bank-transfer';
const HEADER = 'beneficiaryAccountNumber,beneficiaryAccountName,beneficiaryBankCode,amount,narration';
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('money-moving operations in n8n under each sandbox profile', () => {
	const e2e = useSandboxAndN8n('money profiles', {
		beforeStop: async () => {
			await e2e.sb.setProfiles([]).catch(() => undefined);
		},
	});

	/** A set-up call to the service API (the sandbox client's own API client 3 and one token for the file: n8n's token stays untouched; 3 token calls a minute at most). */
	async function api(path: string, body: IDataObject): Promise<IDataObject> {
		return await e2e.sb.api<IDataObject>('POST', path, body);
	}

	async function run(name: string, parameters: IDataObject, items: Array<{ json: IDataObject; binary?: IDataObject }>) {
		return nodeItems(await e2e.runWorkflow(payOnUsWorkflow(name, e2e.credentialId, parameters, items, { continueOnFail: true })), NODE);
	}

	const transferParams: IDataObject = {
		resource: 'payout',
		operation: 'createTransfer',
		transferType: 'WALLET_TO_BANK_ACCOUNT',
		businessId: business('BUS-2001'),
		amount: '={{ $json.amount }}',
		currency: 'NGN',
		countryCode: 'NG',
		reference: '={{ $json.reference }}',
		beneficiaryBankCode: '044',
		beneficiaryAccountNumber: '={{ $json.account }}',
		beneficiaryAccountName: 'Drill Beneficiary',
		narration: 'e2e',
		fromSubWallet: false,
		// the name check (on by default) would stop every item before the drill's faults: not what is drilled here
		verifyBeneficiaryName: false,
	};

	describe.each(TEST_PROFILES.map((p) => p.name))('profile %s', (name) => {
		const profiles = TEST_PROFILES.find((p) => p.name === name)!.profiles;
		const tag = `e2e-${name}-${Date.now().toString(36)}`;

		beforeAll(async () => {
			await e2e.sb.setProfiles(profiles);
			await e2e.sb.clearFaults();
		});
		afterEach(async () => {
			await e2e.sb.clearFaults();
		});

		test('Create Transfer with answers dropped after processing: each reference once, every item its own record', async () => {
			await e2e.sb.addFault({ method: 'POST', path: TRANSFER, rate: 0.5, seed: 3, dropAfterProcessing: true });
			const items = Array.from({ length: 6 }, (_, i) => ({ json: { reference: `${tag}-t${i}`, amount: 100 + i, account: '9999991112' } }));
			const out = await run(`money ${name}: drops`, transferParams, items);
			const ledger = (await e2e.sb.ledger()).transfers as IDataObject[];
			expect(out).toHaveLength(6);
			out.forEach((o, i) => {
				expect(o.error).toBeUndefined();
				const held = ledger.filter((t) => t.merchantReference === `${tag}-t${i}`);
				expect(held).toHaveLength(1);
				expect(o.onusReference).toBe(held[0].onusReference);
				expect(held[0].amount).toBe(100 + i);
			});
		});

		test('a reused reference with other details: an error naming the earlier transfer; nothing new moves', async () => {
			const reference = `${tag}-reused`;
			await api(TRANSFER, {
				amount: 999, beneficiaryAccountNumber: '0123400001', beneficiaryAccountName: 'Earlier', beneficiaryBankCode: '044',
				transferType: 'WALLET_TO_BANK_ACCOUNT', countryCode: 'NG', currency: 'NGN', reference, narration: 'earlier', businessId: 'BUS-2001',
			});
			await e2e.sb.addFault({ method: 'POST', path: TRANSFER, status: 503, times: 1 });
			const out = await run(`money ${name}: reused`, transferParams, [{ json: { reference, amount: 100, account: '9999991112' } }]);
			expect(String(out[0].error)).toMatch(new RegExp(`Reference "${reference}" belongs to an earlier, different transfer .*nothing was sent for this item`));
			expect(String(out[0].error)).not.toMatch(/new,? (unique )?reference/i);
			const held = ((await e2e.sb.ledger()).transfers as IDataObject[]).filter((t) => t.merchantReference === reference);
			expect(held).toHaveLength(1);
			expect(held[0].amount).toBe(999);
		});

		test('Search Transfers Return All reads every page, whatever the page size the service allows', async () => {
			const ledger = (await e2e.sb.ledger()).transfers as IDataObject[];
			const total = ledger.filter((t) => t.merchantId === 'MER-1001').length;
			expect(total).toBeGreaterThan(0);
			const out = await run(`money ${name}: return all`, { resource: 'payout', operation: 'searchTransfers', merchantId: '', returnAll: true, filters: {} }, [{ json: {} }]);
			expect(out).toHaveLength(total);
			expect(new Set(out.map((t) => t.onusReference)).size).toBe(total);
		});

		test('a bulk batch whose answer is lost is sent once: recovered when the rows can be found, else outcome unknown', async () => {
			const batch = `${tag}-bulk`;
			const csv = `${HEADER}\n9999991112,Ann,044,100,x\n0123456789,Bo,058,200,x\n`;
			await e2e.sb.clearRequests();
			await e2e.sb.addFault({ method: 'POST', path: BULK, rate: 1, times: 1, dropAfterProcessing: true });
			const out = await run(
				`money ${name}: bulk`,
				{ resource: 'payout', operation: 'bulkTransfer', source: 'binary', binaryPropertyName: 'data', businessId: business('BUS-2001'), currency: 'NGN', reference: batch },
				[{ json: {}, binary: { data: { data: b64(csv), mimeType: 'text/csv', fileName: 'pay.csv' } } }],
			);
			const posts = (await e2e.sb.requests()).filter((r) => r.path === BULK && r.method === 'POST');
			expect(posts).toHaveLength(1);
			const rows = ((await e2e.sb.ledger()).transfers as IDataObject[]).filter((t) => t.bulkReference === batch);
			expect(rows).toHaveLength(2);
			if (out[0].error !== undefined) {
				expect(String(out[0].error)).toContain(`Outcome unknown for reference "${batch}"`);
			} else {
				expect(out[0]).toMatchObject({ reference: batch, recoveredByLookup: true, transfersFound: 2 });
			}
		});
	});
	/**
	 * Rules 1 and 2 of docs/reliability.md (issue 29) under each answer shape
	 * the spec leaves open (sandbox/answerShapes.ts): a movement is reported
	 * done only as the ledger's own record, an error the service states
	 * reaches the item with its words, and nothing moves twice.
	 */
	describe.each(ANSWER_SHAPE_TEST_PROFILES.filter((p) => p.name !== 'default' && !TEST_PROFILES.some((t) => t.name === p.name)).map((p) => p.name))(
		'answer shape %s',
		(name) => {
			const profiles = ANSWER_SHAPE_TEST_PROFILES.find((p) => p.name === name)!.profiles;
			const tag = `e2e-shape-${name}-${Date.now().toString(36)}`;

			beforeAll(async () => {
				await e2e.sb.setProfiles(profiles);
				await e2e.sb.clearFaults();
			});
			afterEach(async () => {
				await e2e.sb.clearFaults();
			});

			test('Create Transfer: every success item is the ledger\'s one transfer; none moved twice', async () => {
				await e2e.sb.addFault({ method: 'POST', path: TRANSFER, status: 503, every: 3 });
				const items = Array.from({ length: 4 }, (_, i) => ({ json: { reference: `${tag}-t${i}`, amount: 200 + i, account: '9999991112' } }));
				const out = await run(`shape ${name}: transfers`, { ...transferParams, verifyBeneficiaryName: false }, items);
				const ledger = (await e2e.sb.ledger()).transfers as IDataObject[];
				expect(out).toHaveLength(4);
				out.forEach((o, i) => {
					const held = ledger.filter((t) => t.merchantReference === `${tag}-t${i}`);
					expect(held.length).toBeLessThanOrEqual(1);
					if (o.error === undefined) {
						expect(held).toHaveLength(1);
						expect(o.onusReference).toBe(held[0].onusReference);
						expect(held[0].amount).toBe(200 + i);
					} else {
						// Refused (nothing moved) or outcome unknown naming the reference: never a success.
						expect(String(o.error)).toMatch(new RegExp(`${tag}-t${i}|PayOnUs`));
					}
				});
				expect(out.filter((o) => o.error === undefined).length).toBeGreaterThan(0);
			});

			test('Charge Stored Card: the success item is the ledger\'s one TKPY payin', async () => {
				const link = await api('/api/v1/card-tokenization-links', {
					businessId: 'BUS-2001',
					merchantReference: `${tag}-link`,
					customer: { name: 'Ada Obi', email: 'ada@example.com' },
				});
				const done = await e2e.sb.control<IDataObject>('POST', `/links/${String(link.id)}/submit`, { cardNumber: '4111111111111111', expiry: '12/30', cvv: '123' });
				const token = String((done.link as IDataObject).cardTokenId);
				const reference = `${tag}-charge`;
				const out = await run(
					`shape ${name}: stored card`,
					{ resource: 'payin', operation: 'chargeTokenizedCard', businessId: business('BUS-2001'), cardTokenId: token, amount: 7, reference, additionalFields: {} },
					[{ json: {} }],
				);
				const held = ((await e2e.sb.ledger()).payins as IDataObject[]).filter((p) => p.reference === reference || p.merchantReference === reference);
				expect(held).toHaveLength(1);
				expect(out[0].error).toBeUndefined();
				expect(out[0].onusReference).toBe(held[0].onusReference);
				expect(String(out[0].onusReference)).toMatch(/^ONUS-TKPY-/);
			});

			test('an error the service states reaches the item with its words; nothing moves', async () => {
				const reference = `${tag}-nobiz`;
				const out = await run(`shape ${name}: stated error`, { ...transferParams, businessId: business('BUS-9999'), verifyBeneficiaryName: false }, [
					{ json: { reference, amount: 100, account: '9999991112' } },
				]);
				// Refused, or (where the lookup by reference cannot tell) outcome unknown: an error either way, with the service's words.
				expect(out[0].error).toBeDefined();
				expect(JSON.stringify(out[0])).toMatch(/Business BUS-9999 not found|business BUS-9999 not found/);
				expect(((await e2e.sb.ledger()).transfers as IDataObject[]).filter((t) => t.merchantReference === reference)).toHaveLength(0);
			});
		},
	);
});
