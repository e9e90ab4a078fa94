import type { IDataObject, INodeExecutionData, IWebhookResponseData } from 'n8n-workflow';
import { simplifyItems } from '../../shared/triggerSimplify';
import type { CheckoutEnv } from '../checkout/types';
import type { CheckoutClaims } from './emittedCheckouts';

/**
 * The items one request hands n8n: on Paid, the checkout this request saw
 * paid; on Not Paid (the option), the failed attempts and expired checkouts
 * it saw. An item goes out only when this request claims it.
 */
export class PageOutputs {
	paid?: IDataObject;
	readonly notPaid: IDataObject[] = [];

	get any(): boolean {
		return this.paid !== undefined || this.notPaid.length > 0;
	}

	/** Paid first (empty when none), then Not Paid when there is any. */
	workflowData(): INodeExecutionData[][] {
		const outputs = [this.paid ? [{ json: this.paid }] : []];
		if (this.notPaid.length > 0) outputs.push(this.notPaid.map((json) => ({ json })));
		return outputs;
	}
}

/** The checkout's emit functions: claim once, then emit into `outputs`. */
export function emitting(
	outputs: PageOutputs,
	claims: Pick<CheckoutClaims, 'claim'>,
	notPaidOutput: boolean,
): Pick<CheckoutEnv, 'emit' | 'emitNotPaid'> {
	return {
		emit: (item, checkoutRef) => {
			if (!claims.claim(checkoutRef, item)) return false;
			outputs.paid = item;
			return true;
		},
		emitNotPaid: notPaidOutput
			? (item, key) => {
					if (!claims.claim(key)) return false;
					outputs.notPaid.push(item);
					return true;
				}
			: undefined,
	};
}

/** With Simplify on (`simplify` read only when there are items): the items in their output's short shape. */
export function simplified(result: IWebhookResponseData, simplify: () => boolean): IWebhookResponseData {
	if (!result.workflowData || !simplify()) return result;
	const [paid = [], notPaid] = result.workflowData;
	const outputs = [simplifyItems(paid, 'pagePaid')];
	if (notPaid) outputs.push(simplifyItems(notPaid, 'pageNotPaid'));
	return { ...result, workflowData: outputs };
}
