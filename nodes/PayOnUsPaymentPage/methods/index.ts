import { bankTransfer } from './bank';
import { card } from './card';
import { eft } from './eft';
import { mobileMoney } from './momo';
import type { PageMethod } from './types';

/**
 * The Payment Page's payment methods, in the order the page offers them.
 * Adding one: its module (./types.ts says the parts; ./bank.ts is the
 * shortest), then one line here. Nothing else names a method.
 */
export const PAGE_METHODS: readonly PageMethod[] = [bankTransfer, card, mobileMoney, eft];

export { PAYMENT_METHOD_PARTS, type PageMethod } from './types';

/** A registered method by its id (Attempt.m, the node's Payment Methods value). */
export function methodById(id: unknown): PageMethod | undefined {
	return PAGE_METHODS.find((m) => m.id === id);
}

/** The method whose payins Get Payment reads back with this paymentChannel. */
export function methodOfChannel(channel: unknown): string | undefined {
	return PAGE_METHODS.find((m) => m.channel === channel)?.id;
}

/** The method answering a POST step (its forms' `step`). */
export function methodOfStep(step: string): PageMethod | undefined {
	return PAGE_METHODS.find((m) => Object.prototype.hasOwnProperty.call(m.steps, step));
}

/** The view an attempt's step (Attempt.s) shows, whichever method it is of. */
export function viewOfStep(step: string | undefined): string | undefined {
	for (const m of PAGE_METHODS) if (step !== undefined && Object.prototype.hasOwnProperty.call(m.stepViews, step)) return m.stepViews[step];
	return undefined;
}
