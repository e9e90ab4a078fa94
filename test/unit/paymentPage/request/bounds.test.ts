/**
 * Rule 4, every public door is bounded (nodes/PayOnUsPaymentPage/request/bounds.ts,
 * enforced on the page's client in serve.ts): one visitor, one page and one
 * phone or e-mail can make the merchant's credential start only so many
 * payments, and make only so many calls, per minute; a call over a bound is
 * never sent (no client, no token, no service call) and the buyer gets a 429
 * saying when to try again. Time is the page's clock (its clock.ts), moved by
 * hand. The scripted-visitor cases fail on the code before the bounds
 * (every prompt was sent).
 */
import { FakePayOnUs } from '../fakes';
import { page, request, sealedAt, sealedIn, type Page } from '../requests';
import { clock } from '../../../../nodes/PayOnUsPaymentPage/clock';
import { DEFAULT_LIMITS, DoorBuckets, DoorClosed, LIMIT_NAMES, limitsOf, visitorOf } from '../../../../nodes/PayOnUsPaymentPage/request/bounds';
import { paymentPageProperties } from '../../../../nodes/PayOnUsPaymentPage/properties';

let fake = new FakePayOnUs();
let clientsCreated = 0;
jest.mock('../../../../nodes/shared/transport', () => ({
	...jest.requireActual('../../../../nodes/shared/transport'),
	createClient: jest.fn(async () => {
		clientsCreated++;
		return fake;
	}),
}));

let t = Date.UTC(2026, 5, 1, 12);
const realClock = clock.now;
beforeEach(() => {
	fake = new FakePayOnUs();
	clientsCreated = 0;
	t += 3_600_000;
	clock.now = () => t;
});
afterAll(() => {
	clock.now = realClock;
});

/** A GHS mobile money page (network VOD: no OTP). */
const momoPage = (options = {}): Page => page({ currency: 'GHS', methods: ['momo'], options });
const prompts = () => fake.calls.filter((c) => c === 'POST /api/v1/mobile-money/collection').length;

/** One scripted checkout: open the page, fill the form, ask for the prompt. The last answer. */
async function scriptedCheckout(p: Page, ip: string, phone: string, email: string, headers = {}) {
	const from = { ip, headers };
	const c = sealedIn((await request(p, 'GET', {}, {}, from)).body);
	const details = await request(p, 'POST', {}, { c, step: 'start', email, method: 'momo' }, from);
	return await request(p, 'POST', {}, { c: sealedAt(details.location), step: 'momo', network: 'VOD', phone }, from);
}

describe('one visitor scripting checkouts at full speed', () => {
	it('starts 3 payments a minute; the 4th and later are refused before the service (429, Retry-After), with no client created', async () => {
		const p = momoPage();
		const answers = [];
		for (let i = 0; i < 10; i++) answers.push(await scriptedCheckout(p, '203.0.113.9', `+2332412345${10 + i}`, `s${i}@example.com`));
		expect(answers.map((a) => a.status)).toEqual([303, 303, 303, 429, 429, 429, 429, 429, 429, 429]);
		expect(prompts()).toBe(3);
		// The refused requests made no call at all: only the first visit (the page's networks) and the 3 admitted ones created a client.
		expect(clientsCreated).toBe(4);
		const refused = answers[3];
		expect(refused.headers['Retry-After']).toBe('20');
		expect(refused.body).toContain('Please wait a moment');
		expect(refused.body).toContain('Nothing was charged by this request.');
		expect(refused.body).toMatch(/try again in <b><span id="retry-seconds"[^>]*>20<\/span> seconds/);
		// The way back keeps the checkout.
		expect(refused.body).toMatch(/id="retry" href="\?c=1\.[A-Za-z0-9_-]+"/);
	});

	it('may start again once the bucket has refilled (one every 20 s)', async () => {
		const p = momoPage();
		for (let i = 0; i < 3; i++) await scriptedCheckout(p, '203.0.113.10', `+23324123450${i}`, `a${i}@example.com`);
		expect((await scriptedCheckout(p, '203.0.113.10', '+233241234599', 'b@example.com')).status).toBe(429);
		t += 19_000;
		expect((await scriptedCheckout(p, '203.0.113.10', '+233241234598', 'c@example.com')).status).toBe(429);
		t += 1_000;
		expect((await scriptedCheckout(p, '203.0.113.10', '+233241234597', 'd@example.com')).status).toBe(303);
		expect(prompts()).toBe(4);
	});

	it('X-Forwarded-For is not the visitor: rotating it changes nothing (n8n\'s req.ip is)', async () => {
		const p = momoPage();
		const statuses = [];
		for (let i = 0; i < 5; i++) {
			const spoofed = { 'x-forwarded-for': `198.51.100.${i}` };
			statuses.push((await scriptedCheckout(p, '203.0.113.11', `+23324123460${i}`, `x${i}@example.com`, spoofed)).status);
		}
		expect(statuses).toEqual([303, 303, 303, 429, 429]);
	});

	it('an honest buyer on another address is still served during the flood', async () => {
		const p = momoPage();
		for (let i = 0; i < 20; i++) await scriptedCheckout(p, '203.0.113.12', `+23324${String(1_000_000 + i)}`, `f${i}@example.com`);
		const honest = await scriptedCheckout(p, '192.0.2.44', '+233209876543', 'buyer@example.com');
		expect(honest.status).toBe(303);
		expect(honest.location).toMatch(/^\?c=/);
		expect(prompts()).toBe(4);
	});
});

describe('many visitors', () => {
	it('one phone gets at most 2 prompts a minute, whoever asks', async () => {
		const p = momoPage();
		const answers = [];
		for (let i = 0; i < 6; i++) answers.push(await scriptedCheckout(p, `203.0.113.${20 + i}`, '+233 24 123 4567', `m${i}@example.com`));
		expect(answers.map((a) => a.status)).toEqual([303, 303, 429, 429, 429, 429]);
		expect(answers[2].body).toContain('one phone number or email address');
		expect(answers[2].headers['Retry-After']).toBe('30');
		expect(prompts()).toBe(2);
	});

	it('the page starts at most 30 payments a minute from all visitors together', async () => {
		const p = momoPage();
		let refused = 0;
		for (let i = 0; i < 45; i++) {
			const a = await scriptedCheckout(p, `10.0.${i}.1`, `+2332412${String(10000 + i)}`, `p${i}@example.com`);
			if (a.status === 429) {
				refused++;
				expect(a.body).toContain('This page is busy');
			}
		}
		expect(prompts()).toBe(30);
		expect(refused).toBe(15);
	});

	it('an IPv6 visitor is one /64: rotating the interface part changes nothing', async () => {
		const p = momoPage();
		const statuses = [];
		for (let i = 0; i < 5; i++) statuses.push((await scriptedCheckout(p, `2001:db8:aa:bb::${i + 1}`, `+23324123480${i}`, `v${i}@example.com`)).status);
		expect(statuses).toEqual([303, 303, 303, 429, 429]);
	});
});

describe('status reads', () => {
	it('a poll flood of one checkout: at most 120 service calls a minute from the visitor; the rest 429 with the time to wait, no call', async () => {
		const p = momoPage();
		const from = { ip: '203.0.113.30' };
		const wait = await scriptedCheckout(p, from.ip, '+233241230000', 'poll@example.com');
		const c = sealedAt(wait.location);
		const before = fake.calls.length;
		const answers = [];
		for (let i = 0; i < 300; i++) answers.push(await request(p, 'GET', { c, poll: '1' }, {}, from));
		const made = fake.calls.length - before;
		// The checkout's momo step spent 2 calls (create, read), so 118 polls of one read each are left.
		expect(made).toBe(DEFAULT_LIMITS.callsPerVisitor - 2);
		const refused = answers.filter((a) => a.status === 429);
		expect(refused).toHaveLength(300 - made);
		expect(refused[0].json).toEqual({ state: 'pending', retryAfter: 1 });
		expect(refused[0].headers['Retry-After']).toBe('1');
	});

	it('a page shown to a visitor with no payment yet costs nothing', async () => {
		const p = momoPage();
		for (let i = 0; i < 500; i++) expect((await request(p, 'GET', {}, {}, { ip: '203.0.113.31' })).status).toBe(200);
		// The page's networks, read once and cached.
		expect(fake.calls).toEqual(['GET /api/v1/mobile-money/networks']);
	});
});

describe("the builder's limits", () => {
	it('the node offers each limit in Options, with the defaults the page applies', () => {
		const options = paymentPageProperties.find((p) => p.name === 'options')!.options as Array<{ name: string; default: unknown; displayName: string }>;
		for (const [name, value] of Object.entries(DEFAULT_LIMITS)) {
			expect(options.find((o) => o.name === name)).toMatchObject({ default: value, displayName: LIMIT_NAMES[name as keyof typeof LIMIT_NAMES] });
		}
		// The defaults are public (saved workflows hold them).
		expect(DEFAULT_LIMITS).toEqual({ attemptsPerVisitor: 3, attemptsPerTarget: 2, attemptsPerPage: 30, callsPerVisitor: 120, callsPerPage: 600 });
	});

	it('Options set them; a limit an expression left empty or made zero stops the page, naming the option', async () => {
		const one = momoPage({ attemptsPerVisitor: 1 });
		const first = await scriptedCheckout(one, '203.0.113.40', '+233241239000', 'o1@example.com');
		const second = await scriptedCheckout(one, '203.0.113.40', '+233241239001', 'o2@example.com');
		expect([first.status, second.status]).toEqual([303, 429]);
		expect(second.headers['Retry-After']).toBe('60');

		const empty = await request(momoPage({ attemptsPerPage: '' }), 'GET');
		expect(empty.status).toBe(503);
		expect(empty.logs[0]).toContain('Options > Limit: Payment Attempts per Page per Minute must be a whole number from 1 to 100000 (it is "")');
		expect(limitsOf({ callsPerVisitor: 0 })).toContain('Limit: Service Calls per Visitor per Minute');
		expect(limitsOf({})).toEqual(DEFAULT_LIMITS);
	});
});

describe('the memory of the bounds', () => {
	it('holds at most its bound of visitors and targets; the page bucket stays', () => {
		const buckets = new DoorBuckets(() => t, 100, 10);
		for (let i = 0; i < 5000; i++) buckets.take([{ key: `page|v|${i}`, perMinute: 3, kind: 'visitor' }, { key: 'page', perMinute: 100_000, kind: 'page', page: true }]);
		expect(buckets.size).toBe(101);
		for (let i = 0; i < 3; i++) buckets.take([{ key: 'only', perMinute: 3, kind: 'visitor' }]);
		expect(buckets.take([{ key: 'only', perMinute: 3, kind: 'visitor' }])).toBeInstanceOf(DoorClosed);
	});

	it('a refusal takes nothing from the other buckets', () => {
		const buckets = new DoorBuckets(() => t);
		buckets.take([{ key: 'phone', perMinute: 1, kind: 'target' }]);
		expect(buckets.take([{ key: 'visitor', perMinute: 1, kind: 'visitor' }, { key: 'phone', perMinute: 1, kind: 'target' }])).toBeInstanceOf(DoorClosed);
		expect(buckets.take([{ key: 'visitor', perMinute: 1, kind: 'visitor' }])).toBeUndefined();
	});
});

describe('visitorOf', () => {
	it.each([
		['203.0.113.9', '203.0.113.9'],
		['::ffff:203.0.113.9', '203.0.113.9'],
		['2001:db8:aa:bb::1', '2001:db8:aa:bb::/64'],
		['2001:0db8:00aa:00bb:1:2:3:4', '2001:db8:aa:bb::/64'],
		['2001:db8::1', '2001:db8:0:0::/64'],
		[undefined, 'unknown'],
	])('%s is %s', (ip, visitor) => {
		expect(visitorOf(ip)).toBe(visitor);
	});
});
