/**
 * What the PayOnUs client (transport) really throws to the operations: a
 * PayOnUsApiError (nodes/shared/errors/apiError.ts), the typed NodeApiError.
 */
import type { IDataObject } from 'n8n-workflow';
import { PayOnUsApiError } from '../../../nodes/shared/errors';
import type { MoneyOutcome } from '../../../nodes/shared/moneyMoving';
import { FAKE_NODE } from './n8nErrors';

export interface HttpErrorContext {
	/** The record holding the reference (money-moving 409). */
	existingRecord?: IDataObject;
	/** The service's (cleaned) answer. */
	serviceResponse?: IDataObject;
	outcome?: MoneyOutcome;
	reference?: string;
}

/**
 * The client's error for an HTTP status: status and httpCode set, the
 * service's words 'something' in the description, as the transport words it.
 */
export function httpError(status: number, message = `PayOnUs failed with ${status}`, context: HttpErrorContext = {}): PayOnUsApiError {
	return new PayOnUsApiError(FAKE_NODE, {
		message,
		description: 'The service said: something',
		status,
		kind: 'http',
		serviceMessage: 'something',
		serviceResponse: context.serviceResponse,
		existingRecord: context.existingRecord,
		outcome: context.outcome,
		reference: context.reference,
	});
}
