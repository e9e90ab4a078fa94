import type { CheckoutState } from './sealedState';
import type { CheckoutEnv, View, ViewKind } from './types';

/** A state sealed into what the page shows (a view) or into the address that resumes it. */

export function view(env: Pick<CheckoutEnv, 'seal'>, kind: ViewKind, state: CheckoutState, extra: Partial<View> = {}): View {
	return { kind, state, sealed: env.seal(state), ...extra };
}

/** The page address that resumes this state (the return address after 3-D Secure or EFT). */
export function returnUrl(env: Pick<CheckoutEnv, 'seal' | 'pageUrl'>, state: CheckoutState): string {
	const u = new URL(env.pageUrl);
	u.searchParams.set('c', env.seal(state));
	return u.toString();
}
