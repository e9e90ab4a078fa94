/**
 * The tokenization step of the PayOnUs Trigger (tokenization.ts): the
 * link's answer judged (pure). Its reads are in confirm.test.ts (confirmEvent
 * with a link route, and the node confirming a card tokenization event).
 */
import { judgeLink } from '../../../nodes/PayOnUsTrigger/tokenization';
import type { Notification } from '../../../nodes/PayOnUsTrigger/notification';

describe('judgeLink (pure)', () => {
	const link: Notification = {
		event: 'card_tokenization_link.completed',
		body: { event: 'card_tokenization_link.completed', cardTokenizationLinkId: 'ctl_1', businessId: 'BUS-1', cardTokenId: 'tok' },
		receivedAt: new Date(0),
	};

	it('confirmed; with the card token unchecked it says so on the item', () => {
		expect(judgeLink(link, { confirmed: true, tokenChecked: true })).toMatchObject({ kind: 'confirmed', item: { verified: true } });
		const unchecked = judgeLink(link, { confirmed: true, tokenChecked: false });
		expect(unchecked).toMatchObject({
			kind: 'confirmed',
			cardTokenUnchecked: true,
			item: { unsignedFields: ['cardTokenId'], cardTokenIdChecked: false },
		});
	});

	it('a missing link is forged; any other refusal is Unconfirmed with the item as received', () => {
		expect(judgeLink(link, { confirmed: false, reason: 'link not found' })).toEqual({ kind: 'forged' });
		expect(judgeLink(link, { confirmed: false, reason: 'x', forged: true })).toEqual({ kind: 'forged' });
		expect(judgeLink(link, { confirmed: false, reason: 'card token differs' })).toMatchObject({
			kind: 'notConfirmed',
			reason: 'card token differs',
			item: { verified: false, verifiedBy: 'none' },
		});
	});
});
