/**
 * The PayOnUs Trigger's panel (issue 31 point 6): a short notice that says
 * what to do and where to read about the one Webhook URL per environment;
 * the statuses it starts on are a visible parameter, Successful only by
 * default. And the node picker's text.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { PayOnUsTrigger } from '../../../nodes/PayOnUsTrigger/PayOnUsTrigger.node';
import { PayOnUs } from '../../../nodes/PayOnUs/PayOnUs.node';
import { filterEvent } from '../../../nodes/PayOnUsTrigger/filter';
import type { Notification } from '../../../nodes/PayOnUsTrigger/notification';

const trigger = new PayOnUsTrigger().description;
const { NodeHelpers } = jest.requireActual('n8n-workflow') as typeof import('n8n-workflow');

/** What n8n resolves for the node with these values set (the editor and a run see this). */
function resolve(values: IDataObject = { events: ['COLLECTION'] }): IDataObject {
	return NodeHelpers.getNodeParameters(trigger.properties, values as never, true, false, { typeVersion: 1 } as never, trigger) as IDataObject;
}

/** The parameters the editor shows. */
function shown(values: IDataObject = { events: ['COLLECTION'] }): INodeProperties[] {
	const resolved = resolve(values);
	return trigger.properties.filter((p) => NodeHelpers.displayParameter(resolved as never, p, { typeVersion: 1 } as never, trigger));
}

const notification = (event: string, body: IDataObject): Notification => ({ event: event as never, body, receivedAt: new Date(0) });
const collection = (paymentStatus: string) => notification('COLLECTION', { type: 'COLLECTION', paymentStatus, onusReference: 'ONUS-1' });

/** filterEvent with the parameters n8n resolves (and the values set). */
function route(event: Notification, values: IDataObject = {}) {
	const params = resolve({ events: ['COLLECTION', 'PAYOUT', 'card_tokenization_link.completed'], ...values });
	return filterEvent(event, (name, fallback) => (name in params ? params[name] : fallback), () => undefined);
}

describe('PayOnUs Trigger statuses', () => {
	it('has one version, 1', () => {
		expect(trigger.version).toBe(1);
		expect(trigger.defaultVersion).toBeUndefined();
	});

	it('shows Statuses on the panel (not under Add option), Successful only by default', () => {
		const statuses = shown().filter((p) => p.name === 'statuses');
		expect(statuses).toHaveLength(1);
		expect(statuses[0]).toMatchObject({ displayName: 'Statuses', type: 'multiOptions' });
		expect(resolve().statuses).toEqual(['SUCCESSFUL']);
		const names = shown().map((p) => p.name);
		expect(names.indexOf('statuses')).toBe(names.indexOf('events') + 1);
		expect(statuses[0].description).toMatch(/Successful only by default/);
		const options = shown().find((p) => p.name === 'options');
		expect((options?.options as INodeProperties[]).map((o) => o.name)).toEqual(['businessIds']);
	});

	it('by default starts on a SUCCESSFUL collection only', () => {
		expect(route(collection('SUCCESSFUL'))).toMatchObject({ check: 'record' });
		for (const status of ['FAILED', 'PENDING', 'PROCESSING']) {
			expect(route(collection(status))).toEqual({ ignored: 'status not selected' });
		}
		// Chosen statuses replace the default; a cleared list lets every status through.
		expect(route(collection('FAILED'), { statuses: ['FAILED', 'SUCCESSFUL'] })).toMatchObject({ check: 'record' });
		expect(route(collection('PENDING'), { statuses: [] })).toMatchObject({ check: 'record' });
	});

	it('a tokenization notification (always COMPLETED) is not filtered by the payment statuses', () => {
		const tokenization = notification('card_tokenization_link.completed', { cardTokenizationLinkId: 'ctl_1', status: 'COMPLETED', businessId: 'BUS-1' });
		expect(route(tokenization)).toMatchObject({ check: 'link' });
	});
});

describe("the trigger's first panel", () => {
	const notice = trigger.properties.find((p) => p.type === 'notice');
	const text = String(notice?.displayName).replace(/<[^>]+>/g, '');

	it('says what to do in at most two short sentences', () => {
		const sentences = text.split(/(?<=[.!?])\s+/).filter((s) => s.trim().length > 0);
		expect(sentences.length).toBeLessThanOrEqual(2);
		expect(text.split(/\s+/).length).toBeLessThanOrEqual(60);
		expect(text).toMatch(/Production URL as the Webhook URL/);
		expect(text).toMatch(/Webhook Verification Key/);
	});

	it('says there is one Webhook URL per environment and links to the going-live guide', () => {
		expect(text).toMatch(/one Webhook URL per environment/);
		expect(String(notice?.displayName)).toMatch(/<a href="https:\/\/github\.com\/n8n-nodes-payonus\/n8n-nodes-payonus\/blob\/main\/docs\/going-live\.md"/);
	});
});

describe("n8n's node picker", () => {
	/**
	 * n8n (editor-ui generateMergedNodesAndActions, 2.8 and 2.41) lists an
	 * action node and the trigger named like it plus "Trigger" as ONE entry,
	 * and gives that entry the trigger's description.
	 */
	function pickerDescription(action: { name: string; description: string }, trig: { name: string; description: string }) {
		return trig.name.replace('Trigger', '') === action.name ? trig.description : action.description;
	}

	it("the PayOnUs entry's text says what the node does, not only what the trigger does", () => {
		const action = new PayOnUs().description;
		const entry = pickerDescription(action, trigger);
		expect(entry).not.toMatch(/^Starts/);
		expect(entry).toMatch(/pay out/i);
		expect(entry).toMatch(/collect/i);
		expect(entry).toMatch(/notification/i);
		expect(action.description).not.toMatch(/^Starts/);
	});
});
