import { NodeOperationError, type IDataObject, type INodeExecutionData, type IPollFunctions } from 'n8n-workflow';
import type { PayOnUsClient } from '../shared/clientInterface';
import { merchantIdOf } from '../shared/credential/defaults';
import { toRecord } from '../shared/records';
import { createClient } from '../shared/transport';
import { readFilters, splitList, statusSelected } from '../shared/triggerOptions';
import { clock } from './clock';
import { advance, MAX_SEEN, newest, readFrom, readStream, utcDay, type Advance, type PollState, type Stream } from './cursor';
import { readRecords, type ListQuery } from './service';

/**
 * One poll, from the node's parameters to the items it starts the workflow
 * with (in full; the node file simplifies them):
 *
 *   settings   Watch, Options, Merchant ID (errors name the parameter)
 *   (test)     Fetch Test Event: the newest record of each stream; the cursor stays
 *   alone      one poll of this node at a time in this process
 *   read the cursor         static data `payonusPoll`, per stream
 *   read the lists          service.ts: records created since the cursor, less the overlap
 *   decide what is new      cursor.ts (pure): new records, new statuses; the next cursor
 *   emit                    the selected statuses, as items
 *   save the cursor         only a whole, successful poll moves it
 */
export async function poll(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(ctx);
	const client = await createClient(ctx);
	const query: ListQuery = { ...settings.filters, merchantId: merchantIdFor(ctx, settings.watches, client) };
	if (ctx.getMode() === 'manual') return output(await testEvent(client, settings.watches, query));

	return await alone(`${ctx.getWorkflow().id ?? ''}:${ctx.getNode().id}`, async () => {
		const staticData = ctx.getWorkflowStaticData('node');
		const stored = readCursor(staticData);
		const today = utcDay(new Date(clock.now()));
		const next: PollState = { v: 1 };
		const items: INodeExecutionData[] = [];
		for (const watch of settings.watches) {
			const previous = readStream(stored[watch.stream]);
			const fromDate = readFrom(previous, today, settings.overlapDays);
			const records = await readRecords(client, watch.stream, { ...query, fromDate });
			const decided = advance(previous, records, { today, overlapDays: settings.overlapDays, baseline: previous === undefined });
			report(ctx, watch.stream, fromDate, decided);
			items.push(...emit(watch, decided.emit, settings.filters.statuses));
			next[watch.stream] = decided.next;
		}
		saveCursor(staticData, stored, next);
		return output(items);
	});
}

/** A watched stream and the resource its records are (the items' `resource`). */
interface Watch {
	stream: Stream;
	resource: 'payin' | 'payout';
}

interface Settings {
	watches: Watch[];
	filters: { statuses: string[]; businessIds: string[] };
	/** Days re-read before the cursor (1 to 7). */
	overlapDays: number;
}

/** Watch and Options, read before any request is sent. */
function readSettings(ctx: IPollFunctions): Settings {
	const watched = splitList(ctx.getNodeParameter('watch', []) as unknown).filter(
		(w): w is Stream => w === 'payins' || w === 'payouts',
	);
	if (watched.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'Choose at least one thing to watch (payins, payouts)');
	}
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const { statuses, businessIds } = readFilters(options);
	return {
		watches: watched.map((stream) => ({ stream, resource: stream === 'payins' ? 'payin' : 'payout' })),
		filters: { statuses, businessIds },
		overlapDays: Math.min(7, Math.max(1, Math.floor(Number(options.overlapDays ?? 1) || 1))),
	};
}

/** The Merchant ID payouts are searched with: the node's, else the credential's default ('' when payouts are not watched). */
function merchantIdFor(ctx: IPollFunctions, watches: Watch[], client: PayOnUsClient): string {
	if (!watches.some((w) => w.stream === 'payouts')) return '';
	const merchantId = merchantIdOf(ctx.getNodeParameter('merchantId', ''), client.defaults) ?? '';
	if (merchantId.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'Merchant ID is needed to watch payouts', {
			description: 'Set Merchant ID on the node or Default Merchant ID on the credential.',
		});
	}
	return merchantId;
}

/** Fetch Test Event: the newest record (of the selected statuses) of each watched stream; the cursor stays. */
async function testEvent(client: PayOnUsClient, watches: Watch[], query: ListQuery): Promise<INodeExecutionData[]> {
	const items: INodeExecutionData[] = [];
	for (const watch of watches) {
		const records = await readRecords(client, watch.stream, query, 50);
		const latest = newest(records.filter((r) => statusSelected(r.paymentStatus, query.statuses)));
		if (latest) items.push({ json: { ...toRecord(watch.resource, latest), resource: watch.resource, change: 'test' } });
	}
	return items;
}

/**
 * Polls that are still running, per workflow and node. n8n's cron fires on
 * schedule even when the previous poll has not finished; a second poll of
 * the same node in this process would read the same cursor and emit twice,
 * so it is skipped instead.
 */
const running = new Set<string>();

/** Runs `poll` unless a poll of the same node is still running here (then emits nothing). */
async function alone(key: string, poll: () => Promise<INodeExecutionData[][] | null>): Promise<INodeExecutionData[][] | null> {
	if (running.has(key)) return null;
	running.add(key);
	try {
		return await poll();
	} finally {
		running.delete(key);
	}
}

/** The cursor as stored by the last whole poll (static data `payonusPoll`); {} before the first. */
function readCursor(staticData: IDataObject): IDataObject {
	return (staticData.payonusPoll ?? {}) as IDataObject;
}

/** What a stream's poll noticed about the service's answer, in the log. */
function report(ctx: IPollFunctions, stream: Stream, fromDate: string, decided: Advance): void {
	if (decided.outsideWindow > 0) {
		ctx.logger?.debug(
			`PayOnUs Poll Trigger: ${decided.outsideWindow} ${stream} created before ${fromDate} came back although not asked for; not emitted`,
		);
	}
	if (decided.evicted > 0) {
		ctx.logger?.warn(
			`PayOnUs Poll Trigger: more than ${MAX_SEEN} ${stream} in the re-read window; the oldest ${decided.evicted} were forgotten: for records created on or before ${String(decided.next.floor)} the service's lastUpdatedDate now decides (changed after ${String(decided.next.floorUpdated)}: emitted; else not emitted again)`,
		);
	}
}

/** The items of a stream's new records and changes, in the statuses selected (the others are remembered, not emitted). */
function emit(watch: Watch, records: IDataObject[], statuses: string[]): INodeExecutionData[] {
	return records
		.filter((record) => statusSelected(record.paymentStatus, statuses))
		.map((record) => ({ json: { ...toRecord(watch.resource, record), resource: watch.resource } }));
}

/**
 * Saves the next cursor. Streams not watched now keep their state (switching
 * back loses nothing). Only a whole, successful poll gets here; n8n persists
 * static data with the emit.
 */
function saveCursor(staticData: IDataObject, stored: IDataObject, next: PollState): void {
	for (const stream of ['payins', 'payouts'] as Stream[]) {
		if (next[stream] === undefined && stored[stream] !== undefined) next[stream] = readStream(stored[stream]);
	}
	staticData.payonusPoll = next as unknown as IDataObject;
}

function output(items: INodeExecutionData[]): INodeExecutionData[][] | null {
	return items.length > 0 ? [items] : null;
}
