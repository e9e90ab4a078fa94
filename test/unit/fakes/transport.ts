/**
 * A stand-in for nodes/shared/transport in the trigger unit tests: the
 * client they get is `fakeClient`, whose calls each test scripts. In a test:
 *   import { fakeClient } from './fakes/transport';
 *   jest.mock('../../nodes/shared/transport', () => jest.requireActual('./fakes/transport'));
 */
export const fakeClient = {
	request: jest.fn(),
	paginate: jest.fn(),
	environment: 'custom',
	defaults: { merchantId: 'MER-1001' } as { merchantId?: string },
};

export const createClient = jest.fn(async () => fakeClient);

/** Whether a read can stand in for a fresh one (the trigger's credential.ts asks): with the fake client, always. */
export const reusable = jest.fn(() => true);
