import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import type { PayOnUsContext } from '../context';
import { isEnvironment, type PayOnUsEnvironment, resolveBaseUrl } from '../environments';
import type { CredentialDefaults } from './defaults';

/**
 * The PayOnUs API credential (`payOnUsApi`, credentials/PayOnUsApi.credentials.ts),
 * read and normalised in one place: the transport and its session, the
 * access token's preAuthentication and test, the payment page and the
 * trigger's signature check and test event all take its fields from here.
 */

export const CREDENTIAL_TYPE = 'payOnUsApi';

export interface PayOnUsCredential {
	/** The stored data as n8n gave it (token fields included): what the transport sends with. */
	data: ICredentialDataDecryptedObject;
	/** The environment; 'sandbox' when the stored value is none of the three. */
	environment: PayOnUsEnvironment;
	/** The base address of the environment, without a trailing slash; '' when it cannot be used. */
	baseUrl: string;
	/** Why the base address cannot be used (a message naming the field), when it cannot. */
	baseUrlProblem?: string;
	/** Trimmed; '' when none. */
	clientId: string;
	/** As stored; '' when none. */
	clientSecret: string;
	/** As stored; '' when none. */
	webhookVerificationKey: string;
	/** Default Merchant ID / Default Business ID, trimmed, only when set (./defaults.ts applies them). */
	defaults: CredentialDefaults;
}

function stored(value: unknown): string {
	return typeof value === 'string' ? value : '';
}

/** The credential's fields, normalised (pure). */
export function normaliseCredential(data: ICredentialDataDecryptedObject): PayOnUsCredential {
	let baseUrl = '';
	let baseUrlProblem: string | undefined;
	try {
		baseUrl = resolveBaseUrl(data.environment, data.baseUrl);
	} catch (error) {
		baseUrlProblem = (error as Error).message;
	}
	const merchantId = stored(data.merchantId).trim();
	const businessId = stored(data.businessId).trim();
	return {
		data,
		environment: isEnvironment(data.environment) ? data.environment : 'sandbox',
		baseUrl,
		...(baseUrlProblem !== undefined ? { baseUrlProblem } : {}),
		clientId: stored(data.clientId).trim(),
		clientSecret: stored(data.clientSecret),
		webhookVerificationKey: stored(data.webhookVerificationKey),
		defaults: {
			...(merchantId ? { merchantId } : {}),
			...(businessId ? { businessId } : {}),
		},
	};
}

/** The base address; throws (an Error naming the field) when the credential's cannot be used. */
export function baseUrlOf(credential: PayOnUsCredential): string {
	if (credential.baseUrlProblem !== undefined) throw new Error(credential.baseUrlProblem);
	return credential.baseUrl;
}

/** Reads the node's PayOnUs API credential; undefined when the node has none. */
export async function readCredential(ctx: PayOnUsContext): Promise<PayOnUsCredential | undefined> {
	const data = await ctx.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
	return data ? normaliseCredential(data) : undefined;
}
