import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';
import { createClient } from '../shared/transport';
import type { PayOnUsClient } from '../shared/clientInterface';
import { toRecord } from '../shared/records';
import { merchantIdOf } from '../shared/credential/defaults';
import {
	onlyBusinessIdsOption,
	onlyStatusesOption,
	PAYMENT_STATUS_OPTIONS,
	readFilters,
	splitList,
	statusSelected,
	type TriggerFilters,
} from '../shared/triggerOptions';
import { advance, MAX_SEEN, newest, readFrom, readStream, utcDay, type PollState, type Stream } from './cursor';
import { listRecords } from './service';
import { shapeOf, simplifyItems, simplifyOn, simplifyProperty } from '../shared/triggerSimplify';
import { CREDENTIAL_TEST_METHODS } from '../shared/accessToken/credentialTest';

/**
 * Polls that are still running, per workflow and node. n8n's cron fires on
 * schedule even when the previous poll has not finished; a second poll of
 * the same node in this process would read the same cursor and emit twice,
 * so it is skipped instead.
 */
const running = new Set<string>();

interface Watch {
	stream: Stream;
	resource: 'payin' | 'payout';
}

/** Where the poll reads the time ("today", in UTC days). Tests set their own. */
export const POLL_CLOCK = { now: (): Date => new Date() };

/** Reads the records of one stream created on or after `fromDate` (all pages). */
async function readRecords(
	client: PayOnUsClient,
	watch: Watch,
	fromDate: string | undefined,
	filters: TriggerFilters & { merchantId: string },
	limit?: number,
): Promise<IDataObject[]> {
	const status = filters.statuses.length === 1 ? filters.statuses[0] : undefined;
	const businesses = filters.businessIds.length > 0 ? filters.businessIds : [undefined];
	const out: IDataObject[] = [];
	for (const businessId of businesses) {
		const query = { fromDate, status, businessId, merchantId: filters.merchantId };
		out.push(...(await listRecords(client, watch.stream, query, limit)));
	}
	// Filters are applied here too: the service's filters are not all documented.
	return out.filter((r) => {
		if (filters.businessIds.length > 0 && r.businessId !== undefined && !filters.businessIds.includes(String(r.businessId))) {
			return false;
		}
		return true;
	});
}

export class PayOnUsPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'PayOnUs Poll Trigger',
		name: 'payOnUsPollTrigger',
		icon: { light: 'file:payonus.svg', dark: 'file:payonus.dark.svg' },
		group: ['trigger'],
		// 1.1: Simplify (on by default); version 1 keeps its full items.
		// 1.2: simplified items in shape 2 (businessId, the customer's contact; ../shared/triggerSimplify.ts).
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		subtitle: '={{$parameter["watch"].join(", ").replace("payins", "Payins").replace("payouts", "Payouts")}}',
		description: 'Starts the workflow for new or changed PayOnUs payins and payouts, found by polling',
		defaults: { name: 'PayOnUs Poll Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'payOnUsApi', required: true, testedBy: 'payOnUsApiTest' }],
		properties: [
			{
				displayName:
					'Checks PayOnUs every minute for new payins and payouts, and for ones whose status changed, and starts the workflow once for each. Use it where PayOnUs cannot reach this n8n, or next to the PayOnUs Trigger to catch a notification that never came. The first check after activation only notes what already exists. Fetch Test Event shows your most recent payment.',
				name: 'pollNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Watch',
				name: 'watch',
				type: 'multiOptions',
				required: true,
				default: ['payins', 'payouts'],
				options: [
					{ name: 'Payins (Payment Requests)', value: 'payins' },
					{ name: 'Payouts (Transfer Requests)', value: 'payouts' },
				],
			},
			{
				displayName: 'Merchant ID',
				name: 'merchantId',
				type: 'string',
				default: '',
				placeholder: 'MER-1001',
				description: "Needed to search payouts. Empty: the credential's Default Merchant ID.",
				displayOptions: { show: { watch: ['payouts'] } },
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					onlyBusinessIdsOption('Comma-separated business IDs; records of other businesses are skipped'),
					onlyStatusesOption(
						'Emit only records in these statuses (the others are remembered, not emitted)',
						PAYMENT_STATUS_OPTIONS,
					),
					{
						displayName: 'Overlap (Days)',
						name: 'overlapDays',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: 7 },
						default: 1,
						description:
							'Days re-read before the latest creation day seen. The service filters by day, so at least 1; more also catches status changes of older records, at the cost of reading more.',
					},
				],
			},
			simplifyProperty('each record'),
		],
	};

	methods = { credentialTest: CREDENTIAL_TEST_METHODS };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const result = await PayOnUsPollTrigger.prototype.receive.call(this);
		const { typeVersion } = this.getNode();
		if (!result || !simplifyOn(typeVersion, this.getNodeParameter('simplify', true))) return result;
		return result.map((items) => simplifyItems(items, undefined, shapeOf('pollTrigger', typeVersion)));
	}

	/** One poll (items in full; poll() simplifies them). */
	async receive(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const watched = splitList(this.getNodeParameter('watch', []) as unknown).filter(
			(w): w is Stream => w === 'payins' || w === 'payouts',
		);
		if (watched.length === 0) {
			throw new NodeOperationError(this.getNode(), 'Choose at least one thing to watch (payins, payouts)');
		}
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const { statuses, businessIds } = readFilters(options);
		const overlapDays = Math.min(7, Math.max(1, Math.floor(Number(options.overlapDays ?? 1) || 1)));
		const client = await createClient(this);
		let merchantId = '';
		if (watched.includes('payouts')) {
			merchantId = merchantIdOf(this.getNodeParameter('merchantId', ''), client.defaults) ?? '';
			if (merchantId.length === 0) {
				throw new NodeOperationError(this.getNode(), 'Merchant ID is needed to watch payouts', {
					description: "Set Merchant ID on the node or Default Merchant ID on the credential.",
				});
			}
		}
		const filters = { statuses, businessIds, merchantId };
		const watches: Watch[] = watched.map((stream) => ({
			stream,
			resource: stream === 'payins' ? 'payin' : 'payout',
		}));

		// Test event: the newest record of each watched stream; the cursor stays.
		if (this.getMode() === 'manual') {
			const items: INodeExecutionData[] = [];
			for (const watch of watches) {
				const records = await readRecords(client, watch, undefined, filters, 50);
				const latest = newest(records.filter((r) => statusSelected(r.paymentStatus, statuses)));
				if (latest) items.push({ json: { ...toRecord(watch.resource, latest), resource: watch.resource, change: 'test' } });
			}
			return items.length > 0 ? [items] : null;
		}

		const lockKey = `${this.getWorkflow().id ?? ''}:${this.getNode().id}`;
		if (running.has(lockKey)) return null;
		running.add(lockKey);
		try {
			const staticData = this.getWorkflowStaticData('node');
			const state: PollState = { v: 1 };
			const baseline = staticData.payonusPoll === undefined;
			const stored = (staticData.payonusPoll ?? {}) as IDataObject;
			const today = utcDay(POLL_CLOCK.now());
			const items: INodeExecutionData[] = [];
			for (const watch of watches) {
				const previous = readStream(stored[watch.stream]);
				const streamBaseline = baseline || previous === undefined;
				const fromDate = readFrom(previous, today, overlapDays);
				const records = await readRecords(client, watch, fromDate, filters);
				const result = advance(previous, records, { today, overlapDays, baseline: streamBaseline });
				state[watch.stream] = result.next;
				if (result.outsideWindow > 0) {
					this.logger?.debug(
						`PayOnUs Poll Trigger: ${result.outsideWindow} ${watch.stream} created before ${fromDate} came back although not asked for; not emitted`,
					);
				}
				if (result.evicted > 0) {
					this.logger?.warn(
						`PayOnUs Poll Trigger: more than ${MAX_SEEN} ${watch.stream} in the re-read window; the oldest ${result.evicted} were forgotten: for records created on or before ${String(result.next.floor)} the service's lastUpdatedDate now decides (changed after ${String(result.next.floorUpdated)}: emitted; else not emitted again)`,
					);
				}
				for (const record of result.emit) {
					if (!statusSelected(record.paymentStatus, statuses)) continue;
					items.push({ json: { ...toRecord(watch.resource, record), resource: watch.resource } });
				}
			}
			// Streams not watched now keep their state (switching back loses nothing).
			for (const stream of ['payins', 'payouts'] as Stream[]) {
				if (state[stream] === undefined && stored[stream] !== undefined) {
					state[stream] = readStream(stored[stream]);
				}
			}
			// Only a whole, successful poll moves the cursor; n8n persists it with the emit.
			staticData.payonusPoll = state as unknown as IDataObject;
			return items.length > 0 ? [items] : null;
		} finally {
			running.delete(lockKey);
		}
	}
}
