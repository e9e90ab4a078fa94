/**
 * The tokenization step of the PayOnUs Trigger (tokenization.ts): the
 * link's answer judged (pure). Its reads are in confirm.test.ts (confirmEvent
 * with a link route, and the node confirming a card tokenization event).
 */
import { judgeLink } from '../../../nodes/PayOnUsTrigger/tokenization';
import type { Notification } from '../../../nodes/PayOnUsTrigger/notification';
import type { IDataObject } from 'n8n-workflow';
import type { Judgement } from '../../../nodes/shared/claim';

/** A memory that has let nothing go: it never refuses. */
const fresh = (): Judgement => ({ known: false });

describe('judgeLink (pure)', () => {
	const link: Notification = {
		event: 'card_tokenization_link.completed',
		body: { event: 'card_tokenization_link.completed', cardTokenizationLinkId: 'ctl_1', businessId: 'BUS-1', cardTokenId: 'tok' },
		receivedAt: new Date(0),
	};

	it('confirmed; with the card token unchecked it says so on the item', () => {
		expect(judgeLink(link, { confirmed: true, tokenChecked: true }, fresh)).toMatchObject({ kind: 'confirmed', item: { verified: true } });
		const unchecked = judgeLink(link, { confirmed: true, tokenChecked: false }, fresh);
		expect(unchecked).toMatchObject({
			kind: 'confirmed',
			cardTokenUnchecked: true,
			item: { unsignedFields: ['cardTokenId'], cardTokenIdChecked: false },
		});
	});

	it('a missing link is forged; any other refusal is Unconfirmed with the item as received', () => {
		expect(judgeLink(link, { confirmed: false, reason: 'link not found' }, fresh)).toEqual({ kind: 'forged' });
		expect(judgeLink(link, { confirmed: false, reason: 'x', forged: true }, fresh)).toEqual({ kind: 'forged' });
		expect(judgeLink(link, { confirmed: false, reason: 'card token differs' }, fresh)).toMatchObject({
			kind: 'notConfirmed',
			reason: 'card token differs',
			item: { verified: false, verifiedBy: 'none' },
		});
	});

	it('rule 3: dated by its card token, kept with that date; past the horizon, or undated once the memory let events go, Unconfirmed', () => {
		const dated = { createdDate: '2026-01-15 10:00:00' };
		const seen: IDataObject[] = [];
		expect(judgeLink(link, { confirmed: true, tokenChecked: true, dated }, (r) => (seen.push(r), { known: false }))).toMatchObject({
			kind: 'confirmed',
			record: dated,
		});
		expect(seen).toEqual([dated]);
		const horizon = (r: IDataObject): Judgement =>
			r.createdDate === undefined
				? { known: true, reason: 'no readable date' }
				: { known: true, reason: `last changed ${String(r.createdDate)}: it may have been handled already` };
		expect(judgeLink(link, { confirmed: true, tokenChecked: true, dated }, horizon)).toMatchObject({
			kind: 'notConfirmed',
			reason: 'not started again: last changed 2026-01-15 10:00:00: it may have been handled already. Check your records for card token tok (link ctl_1)',
			item: { verified: true, verifiedBy: 'api' },
		});
		const undated = judgeLink(link, { confirmed: true, tokenChecked: false, undated: 'no Merchant ID to read its card token with' }, horizon);
		expect(undated).toMatchObject({ kind: 'notConfirmed' });
		expect((undated as { reason: string }).reason).toContain(
			'nothing dates this completion (no Merchant ID to read its card token with) and this node\'s memory no longer covers every event: it may have been handled already',
		);
	});
});
