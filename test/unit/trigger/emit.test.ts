/** Step 6 of the PayOnUs Trigger (emit.ts): the answers, the two outputs, and the lines logged. */
import {
	answered,
	duplicate,
	emit,
	ignored,
	received,
	refusal,
	respond,
	started,
	type Verdict,
} from '../../../nodes/PayOnUsTrigger/emit';
import type { Notification } from '../../../nodes/PayOnUsTrigger/notification';

function response() {
	const sent: Array<{ status: number; body: unknown }> = [];
	const res = {
		status: (status: number) => ({ json: (body: unknown) => sent.push({ status, body }) }),
	};
	return { res, sent };
}
function log() {
	const lines: Array<['warn' | 'info', string]> = [];
	return { lines, warn: (m: string) => lines.push(['warn', m]), info: (m: string) => lines.push(['info', m]) };
}

const payout: Notification = { event: 'PAYOUT', body: { onusReference: 'TRNF-1', businessId: 'BUS-1' }, receivedAt: new Date(0) };
const link: Notification = {
	event: 'card_tokenization_link.completed',
	body: { cardTokenizationLinkId: 'ctl_1', businessId: 'BUS-1' },
	receivedAt: new Date(0),
};

describe('answers', () => {
	it('are the bodies PayOnUs gets', () => {
		expect(received()).toEqual({ status: 200, body: { received: true } });
		expect(duplicate()).toEqual({ status: 200, body: { received: true, duplicate: true } });
		expect(ignored('status not selected')).toEqual({ status: 200, body: { received: true, ignored: 'status not selected' } });
		expect(refusal(401, 'Signature missing or wrong')).toEqual({ status: 401, body: { received: false, message: 'Signature missing or wrong' } });
	});

	it('answered: written once, nothing starts', () => {
		const a = response();
		expect(answered(a.res, refusal(400, 'Empty body'))).toEqual({ noWebhookResponse: true });
		expect(a.sent).toEqual([{ status: 400, body: { received: false, message: 'Empty body' } }]);
		const c = response();
		respond(c.res, received());
		expect(c.sent).toHaveLength(1);
		expect(started([], [{ id: 2 }])).toEqual({ noWebhookResponse: true, workflowData: [[], [{ json: { id: 2 } }]] });
	});
});

describe('emit (after the confirmation; the answer went out before)', () => {
	it('confirmed: the first output, nothing logged', () => {
		const l = log();
		expect(emit({ kind: 'confirmed', item: { a: 1 } }, payout, false, l)).toEqual({
			noWebhookResponse: true,
			workflowData: [[{ json: { a: 1 } }], []],
		});
		expect(l.lines).toEqual([]);
	});

	it('confirmed with the card token unchecked: says so in the log', () => {
		const l = log();
		emit({ kind: 'confirmed', item: {}, cardTokenUnchecked: true }, link, false, l);
		expect(l.lines).toEqual([
			['info', 'PayOnUs Trigger: tokenization link ctl_1 confirmed COMPLETED; its card token could not be checked (no Merchant ID to search links with)'],
		]);
	});

	it('not confirmed: the second output with the reason, and a warning', () => {
		const l = log();
		const verdict: Verdict = { kind: 'notConfirmed', item: { a: 1 }, reason: 'the service has no transfer TRNF-1' };
		expect(emit(verdict, payout, false, l)).toEqual({
			noWebhookResponse: true,
			workflowData: [[], [{ json: { a: 1, confirmed: false, confirmation: { confirmed: false, reason: 'the service has no transfer TRNF-1' } } }]],
		});
		expect(l.lines).toEqual([
			['warn', 'PayOnUs Trigger: PAYOUT TRNF-1 was not confirmed (the service has no transfer TRNF-1); sent to the Unconfirmed output, not to Confirmed'],
		]);
	});

	it('not confirmed on a re-check: no new execution, an info line', () => {
		const l = log();
		expect(emit({ kind: 'notConfirmed', item: {}, reason: 'still pending' }, payout, true, l)).toEqual({ noWebhookResponse: true });
		expect(l.lines).toEqual([['info', 'PayOnUs Trigger: PAYOUT TRNF-1 was checked again and still not confirmed (still pending); no new execution']]);
	});

	it('another business (confirmed) or a forged link: nothing starts, the log says why', () => {
		const l = log();
		expect(emit({ kind: 'otherBusiness', businessId: 'BUS-7' }, payout, false, l)).toEqual({ noWebhookResponse: true });
		expect(emit({ kind: 'forged' }, link, false, l)).toEqual({ noWebhookResponse: true });
		expect(l.lines).toEqual([
			['info', 'PayOnUs Trigger: PAYOUT TRNF-1 is for business BUS-7 (confirmed), not selected; ignored'],
			['warn', 'PayOnUs Trigger: tokenization notification for link ctl_1 was not confirmed (PayOnUs has no such link for business BUS-1); no execution started'],
		]);
	});
});
