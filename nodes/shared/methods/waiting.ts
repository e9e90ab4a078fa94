import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import type { PayOnUsClient } from '../clientInterface';
import { createClient } from '../transport';

/**
 * What a dropdown says while it cannot load yet (issue 31 point 1): one
 * entry naming what it waits for, never n8n's red "Error fetching options".
 */

/** The one entry of a list that needs another field first ("Pick a Currency first"). */
export function pickFirst(what: string, description?: string): INodePropertyOptions[] {
	return waitFor(`Pick ${what}`, description);
}

/** The one entry of a list that needs something else first ("Set a Default Merchant ID ... first"). */
export function waitFor(what: string, description?: string): INodePropertyOptions[] {
	return [{ name: `${what} first`, value: '', ...(description ? { description } : {}) }];
}

/**
 * Runs `load` with a client of the node's credential. A credential that
 * cannot be used yet (a fresh node whose credential is not set: n8n loads
 * the dropdowns before it assigns one; a base address that cannot be used)
 * makes the list say so, and nothing is sent. What the service answers
 * (a refused secret, an unreachable host) is `load`'s and still shows.
 */
export async function withClient(
	ctx: ILoadOptionsFunctions,
	load: (client: PayOnUsClient) => Promise<INodePropertyOptions[]>,
): Promise<INodePropertyOptions[]> {
	let client: PayOnUsClient;
	try {
		client = await createClient(ctx);
	} catch (error) {
		const why = error instanceof Error ? error.message : String(error);
		return waitFor('Choose a PayOnUs API credential', `The list loads once the node has a usable PayOnUs API credential (${why})`);
	}
	return await load(client);
}

/**
 * Issue 38: a dropdown whose field is still empty keeps an entry for that
 * empty value once its list loads ("Choose a bank"). n8n marks a value that
 * is not among the options in red ("The value "" is not supported!") and
 * keeps the label it last showed: without this entry, the Bank of a transfer
 * stayed red, reading "Pick a Currency first", after a currency was chosen.
 * A value chosen earlier that the new list lacks (a bank of another
 * currency) is still shown as not supported: that one is a real mistake.
 * `fields`: the names the field has in the operations using the list; the
 * first one the node has is read.
 */
export function keepUnchosen(ctx: ILoadOptionsFunctions, fields: string[], what: string, options: INodePropertyOptions[]): INodePropertyOptions[] {
	let value: unknown;
	for (const name of fields) {
		try {
			value = ctx.getCurrentNodeParameter(name);
		} catch {
			value = undefined;
		}
		if (value !== undefined) break;
	}
	if (value !== '' || options.some((o) => o.value === '')) return options;
	return [{ name: `Choose ${what}`, value: '', description: 'Nothing is chosen yet: pick one from the list' }, ...options];
}
