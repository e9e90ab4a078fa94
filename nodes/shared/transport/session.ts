import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { tokenCache } from '../token/cache';
import { copyTokenFields, markTransportOwned, numberField, storedToken } from '../token/credential';
import { classifyFailure } from './failure';
import type { PayOnUsContext } from './context';
import { CREDENTIAL_TYPE } from './context';

/**
 * Authentication of the transport's calls. Every call goes through n8n's
 * `httpRequestWithAuthentication` with the credential this session read
 * itself (passed as `credentialsDecrypted`, marked as transport-owned), so
 * that after a 401 it can re-read the stored credential and take a newer
 * token another execution or n8n process stored, and only then ask for a
 * new one (see token/preAuthentication.ts). At most two such recoveries per
 * call; a 401 means the service refused before processing, so resending is
 * safe even for money-moving calls.
 */

const MAX_AUTH_RECOVERIES = 2;
/** A stored token issued this recently that already fails probably lost a
 * race with another process that is about to store its own: look again. */
const RECENT_TOKEN_MS = 15_000;
const RACE_SETTLE_MS = 500;
const RACE_LOOKS = 4;

export class Session {
	/** The credential data used for the next call (n8n updates its token in place). */
	private data: ICredentialDataDecryptedObject;
	private readonly secretValues: string[] = [];

	constructor(
		private readonly ctx: PayOnUsContext,
		credentials: ICredentialDataDecryptedObject,
		/** The client's token fingerprint (token/credential.ts). */
		private readonly key: string,
		private readonly pause: (ms: number) => Promise<void>,
	) {
		this.data = this.adopt(credentials);
	}

	/** Strings never to show: client secret, verification key, current token. */
	secrets(): string[] {
		const token = storedToken(this.data);
		return token ? [...this.secretValues, token] : this.secretValues;
	}

	/**
	 * Takes a credential read from the database: notes its token in the
	 * process cache, and blanks the token (so preAuthentication supplies one)
	 * when it was minted for other settings or is about to expire.
	 */
	private adopt(credentials: ICredentialDataDecryptedObject): ICredentialDataDecryptedObject {
		const data = markTransportOwned({ ...credentials });
		const token = storedToken(data);
		if (token !== '' && data.tokenFingerprint !== this.key) {
			data.accessToken = '';
		} else if (token !== '') {
			const expiresAt = numberField(data.expiresAt) ?? 0;
			const rec = { token, issuedAt: numberField(data.issuedAt) ?? 0, expiresAt };
			if (expiresAt > 0 && !tokenCache.isFresh(rec, this.key)) {
				data.accessToken = '';
			} else if (expiresAt > 0) {
				tokenCache.observe(this.key, rec);
			}
		}
		for (const s of [data.clientSecret, data.webhookVerificationKey]) {
			if (typeof s === 'string' && s.length > 0 && !this.secretValues.includes(s)) this.secretValues.push(s);
		}
		return data;
	}

	private credentialsDecrypted(data: ICredentialDataDecryptedObject): ICredentialsDecrypted {
		const ref = this.ctx.getNode().credentials?.[CREDENTIAL_TYPE];
		return {
			id: ref?.id ?? '',
			name: ref?.name ?? 'PayOnUs API',
			type: CREDENTIAL_TYPE,
			data,
		};
	}

	/**
	 * Re-reads the stored credential after a refused token and decides
	 * whether a new token is needed:
	 *  - the stored token differs from the one that failed: another execution
	 *    or process stored a newer one; use it (no token call);
	 *  - the stored token IS the one that failed, and it is only seconds old:
	 *    another process most likely minted at the same moment and is about to
	 *    store its token; look again a few times (jittered) before minting, so
	 *    two processes do not keep killing each other's tokens;
	 *  - otherwise flag it dead and send with an empty token: preAuthentication
	 *    then hands out this process's live token if it has one (and n8n
	 *    stores it), or mints one (single flight).
	 */
	private async recoverFromRejectedToken(failedToken: string): Promise<void> {
		for (let look = 0; ; look++) {
			const fresh = this.adopt(
				(await this.ctx.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE)) ?? {},
			);
			const stored = storedToken(fresh);
			if (stored !== '' && stored !== failedToken && !tokenCache.isDead(this.key, stored)) {
				this.data = fresh;
				return;
			}
			const issuedAt = numberField(fresh.issuedAt) ?? 0;
			const recent = stored === failedToken && issuedAt > 0 && tokenCache.now() - issuedAt < RECENT_TOKEN_MS;
			const mine = tokenCache.live(this.key);
			if (recent && look < RACE_LOOKS && !(mine && mine.token !== failedToken)) {
				await this.pause(RACE_SETTLE_MS + Math.floor(Math.random() * RACE_SETTLE_MS));
				continue;
			}
			if (failedToken !== '') tokenCache.markDead(this.key, failedToken);
			fresh.accessToken = '';
			this.data = fresh;
			return;
		}
	}

	/**
	 * One call with authentication and the 401 recovery; returns the raw body
	 * or throws what n8n threw (transport/failure.ts reads it).
	 * Safe with several calls of one node run in flight (the node runs reads
	 * concurrently): each attempt sends its own copy of the credential data, so
	 * n8n writes the token it sends (preAuthentication) into that copy and the
	 * token blamed for a 401 is exactly the one THIS attempt sent; a token that
	 * worked is handed back to the shared data for the next calls. When
	 * another call already recovered (the shared data holds another live
	 * token), a 401 just resends with it: no database read, no token call.
	 */
	async send(request: IHttpRequestOptions): Promise<unknown> {
		let tookShared = false;
		for (let recoveries = 0; ; recoveries++) {
			const options: IHttpRequestOptions = {
				...request,
				headers: { ...(request.headers ?? {}) },
				qs: request.qs ? { ...request.qs } : undefined,
			};
			const base = this.data;
			const sent = markTransportOwned({ ...base });
			let failed: unknown;
			try {
				const body = await this.ctx.helpers.httpRequestWithAuthentication.call(
					this.ctx as IExecuteFunctions,
					CREDENTIAL_TYPE,
					options,
					{ credentialsDecrypted: this.credentialsDecrypted(sent) },
				);
				if (this.data === base && sent.accessToken !== base.accessToken) copyTokenFields(sent, base);
				return body;
			} catch (error) {
				failed = error;
			}
			if (classifyFailure(failed).kind !== 'auth' || recoveries >= MAX_AUTH_RECOVERIES) throw failed;
			const token = storedToken(sent);
			const current = storedToken(this.data);
			if (!tookShared && current !== '' && current !== token && !tokenCache.isDead(this.key, current)) {
				// Once per call, and not counted as a recovery (the re-read ones stay available).
				tookShared = true;
				recoveries--;
				continue;
			}
			await this.recoverFromRejectedToken(token);
		}
	}
}
