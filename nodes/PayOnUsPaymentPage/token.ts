/**
 * The key of the checkout's sealed state, for credential.ts (which derives it
 * from the credential's client secret): kept here so that file builds
 * unchanged. The sealed state itself: ./checkout/sealedState.ts.
 */
export { deriveKey } from './checkout/sealedState';
