/**
 * n8n in this process: a minimal stand-in for the parts of n8n the transport
 * and the credential touch, built on n8n-core's REAL request helpers (httpRequest and
 * httpRequestWithAuthentication, axios underneath, the same error wrapping)
 * and a fake credentials helper that follows n8n 2.8.4's CredentialsHelper:
 *  - preAuthentication runs when the expirable field is '' or after a 401
 *    (expired = true), with the same credentials object;
 *  - a result carrying `accessToken` is merged into that object and the
 *    whole object is saved (JSON round trip, like n8n's encryption);
 *  - getCredentials reads the store again on every call.
 * Several FakeN8n instances can share one store: two "processes" on one
 * database (each must then use its own token cache, see `isolatedModules`).
 */
import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestOptions, INode } from 'n8n-workflow';
import { sandboxClient, sandboxCredentialData } from './sandboxCredential';

interface RequestHelpers {
	httpRequest(o: IHttpRequestOptions): Promise<unknown>;
	httpRequestWithAuthentication(this: unknown, ...args: unknown[]): Promise<unknown>;
}
let loaded: RequestHelpers | undefined;

/** The request helpers n8n itself runs: n8n-core's internal module (no typings, not in its exports), loaded on first use. */
function core(): RequestHelpers {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	loaded ??= require('n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions.js') as RequestHelpers;
	return loaded;
}

export const CREDENTIAL_ID = 'cred-1';

/** The PayOnUs node the contexts run as, with the credential CREDENTIAL_ID (also the unit fakes' node). */
export const PAYONUS_NODE: INode = {
	id: 'node-1',
	name: 'PayOnUs',
	type: 'n8n-nodes-payonus.payOnUs',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
	credentials: { payOnUsApi: { id: CREDENTIAL_ID, name: 'PayOnUs account' } },
};

export class CredentialStore {
	private rows = new Map<string, string>();
	writes = 0;
	constructor(initial?: ICredentialDataDecryptedObject) {
		if (initial) this.rows.set(CREDENTIAL_ID, JSON.stringify(initial));
	}
	read(id = CREDENTIAL_ID): ICredentialDataDecryptedObject {
		const row = this.rows.get(id);
		if (!row) throw new Error(`no credential ${id}`);
		return JSON.parse(row) as ICredentialDataDecryptedObject;
	}
	write(data: ICredentialDataDecryptedObject, id = CREDENTIAL_ID): void {
		this.writes++;
		this.rows.set(id, JSON.stringify(data));
	}
	patch(fields: IDataObject, id = CREDENTIAL_ID): void {
		this.rows.set(id, JSON.stringify({ ...this.read(id), ...fields }));
	}
}

export interface CredentialTypeLike {
	properties: Array<{ name: string; type: string; typeOptions?: IDataObject }>;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- n8n binds its request helpers as `this`
	preAuthentication?: (this: any, credentials: ICredentialDataDecryptedObject) => Promise<IDataObject>;
}

export const httpRequest = async (o: IHttpRequestOptions): Promise<unknown> => await core().httpRequest(o);

/** One n8n "process": a credentials helper + contexts using the real request helpers. */
export class FakeN8n {
	preAuthCalls = 0;
	requests = 0;
	constructor(
		readonly store: CredentialStore,
		readonly credentialType: CredentialTypeLike,
	) {}

	node(): INode {
		return { ...PAYONUS_NODE };
	}

	private credentialsHelper() {
		const type = this.credentialType;
		const store = this.store;
		return {
			getParentTypes: () => [],
			preAuthentication: async (
				helpers: unknown,
				credentials: ICredentialDataDecryptedObject,
				_typeName: string,
				node: INode,
				expired: boolean,
			) => {
				const expirable = type.properties.find((p) => p.type === 'hidden' && p.typeOptions?.expirable === true);
				if (!expirable || !type.preAuthentication) return undefined;
				if (credentials[expirable.name] !== '' && !expired) return undefined;
				this.preAuthCalls++;
				const output = await type.preAuthentication.call(helpers, credentials);
				if (output[expirable.name] === undefined) return undefined;
				if (node.credentials) store.write(Object.assign(credentials, output));
				return Object.assign(credentials, output);
			},
			authenticate: async (credentials: ICredentialDataDecryptedObject, _t: string, options: IHttpRequestOptions) => {
				options.headers = { ...(options.headers ?? {}), Authorization: `Bearer ${String(credentials.accessToken)}` };
				return options;
			},
		};
	}

	/** An IExecuteFunctions-like context (enough for createClient). */
	context(): IDataObject {
		const node = this.node();
		const additionalData = { credentialsHelper: this.credentialsHelper() };
		const count = () => this.requests++;
		const ctx: IDataObject = {
			getNode: () => node,
			getCredentials: async () => this.store.read(),
			helpers: {
				httpRequest: async (o: IHttpRequestOptions) => {
					count();
					return await core().httpRequest(o);
				},
				httpRequestWithAuthentication(this: unknown, type: string, o: IHttpRequestOptions, extra?: IDataObject) {
					count();
					return core().httpRequestWithAuthentication.call(this, type, o, {}, node, additionalData, extra);
				},
			},
		};
		return ctx;
	}

	/** What n8n passes as `this` to preAuthentication. */
	preAuthThis(): { helpers: { httpRequest: (o: IHttpRequestOptions) => Promise<unknown> } } {
		return { helpers: { httpRequest } };
	}
}

/** Credential data pointing at a sandbox (API client `client`), with an empty token slot. */
export function sandboxCredential(baseUrl: string, client = 1, extra: IDataObject = {}): ICredentialDataDecryptedObject {
	return sandboxCredentialData(baseUrl, {
		...sandboxClient(client),
		webhookVerificationKey: 'whk-test-key',
		accessToken: '',
		issuedAt: 0,
		expiresAt: 0,
		tokenFingerprint: '',
		...extra,
	}) as ICredentialDataDecryptedObject;
}
