/** Step 3 of the PayOnUs Trigger (filter.ts): Events, statuses, business, and how the event is checked. */
import type { IDataObject } from 'n8n-workflow';
import { checkOf, filterEvent, isConfirming } from '../../../nodes/PayOnUsTrigger/filter';
import type { Notification } from '../../../nodes/PayOnUsTrigger/notification';

const collection: Notification = {
	event: 'COLLECTION',
	body: { type: 'COLLECTION', paymentStatus: 'SUCCESSFUL', businessId: 'BUS-1', onusReference: 'ONUS-1' },
	receivedAt: new Date(0),
};
const tokenization: Notification = {
	event: 'card_tokenization_link.completed',
	body: { cardTokenizationLinkId: 'ctl_1', status: 'COMPLETED', businessId: 'BUS-1' },
	receivedAt: new Date(0),
};

/** The node's parameters, recording which were read. */
function parameters(values: IDataObject) {
	const read: string[] = [];
	const get = (name: string, fallback: unknown) => {
		read.push(name);
		return name in values ? values[name] : fallback;
	};
	return { get, read };
}
const all = { events: ['COLLECTION', 'PAYOUT', 'REFUND', 'card_tokenization_link.completed'] };

describe('filterEvent', () => {
	it('ignores an event not selected, reading no other parameter', () => {
		const p = parameters({ events: ['PAYOUT'] });
		expect(filterEvent(collection, p.get, () => undefined)).toEqual({ ignored: 'event not selected' });
		expect(p.read).toEqual(['events']);
	});

	it('routes a selected event by the confirmation switches (both on by default)', () => {
		expect(filterEvent(collection, parameters(all).get, () => undefined)).toEqual({ check: 'record', businessIds: [] });
		expect(filterEvent(collection, parameters({ ...all, confirmWithService: false }).get, () => undefined)).toEqual({
			check: 'signature',
			businessIds: [],
		});
		expect(filterEvent(tokenization, parameters(all).get, () => undefined)).toMatchObject({ check: 'link' });
		expect(filterEvent(tokenization, parameters({ ...all, confirmTokenization: false }).get, () => undefined)).toMatchObject({
			check: 'none',
		});
	});

	it('ignores a status not selected (the status is signed)', () => {
		const p = parameters({ ...all, statuses: ['FAILED'] });
		expect(filterEvent(collection, p.get, () => undefined)).toEqual({ ignored: 'status not selected' });
	});

	it("leaves the business to the service's record when it confirms; checks the notification's otherwise", () => {
		const options = { businessIds: 'BUS-2, BUS-3' };
		expect(filterEvent(collection, parameters({ ...all, options }).get, () => undefined)).toEqual({
			check: 'record',
			businessIds: ['BUS-2', 'BUS-3'],
		});
		expect(filterEvent(collection, parameters({ ...all, options, confirmWithService: false }).get, () => undefined)).toEqual({
			ignored: 'business not selected',
		});
		expect(filterEvent(tokenization, parameters({ ...all, options }).get, () => undefined)).toEqual({
			ignored: 'business not selected',
		});
	});

	it('takes an unreadable switch as on, and logs why', () => {
		const warnings: string[] = [];
		const route = filterEvent(collection, parameters({ ...all, confirmWithService: 'yes' }).get, (m) => warnings.push(m));
		expect(route).toMatchObject({ check: 'record' });
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/^PayOnUs Trigger: .*confirmWithService.*; confirming with the service as if it were on$/);
	});
});

describe('checkOf / isConfirming', () => {
	it.each([
		['COLLECTION', true, true, 'record', true],
		['PAYOUT', true, true, 'record', true],
		['COLLECTION', false, true, 'signature', false],
		['REFUND', true, true, 'signature', false],
		['card_tokenization_link.completed', false, true, 'link', true],
		['card_tokenization_link.completed', true, false, 'none', false],
	] as const)('%s (service %s, tokenization %s) is checked by %s', (event, service, link, check, confirming) => {
		expect(checkOf(event, service, link)).toBe(check);
		expect(isConfirming(check)).toBe(confirming);
	});
});
