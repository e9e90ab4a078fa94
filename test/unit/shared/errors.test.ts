import { statusOf } from '../../../nodes/shared/errors';
import { httpError } from '../fakes';

describe('statusOf (nodes/shared/errors/explain.ts)', () => {
	it('statusOf reads the typed status of the client\'s error, and guesses nothing from other shapes', () => {
		expect(statusOf(httpError(410))).toBe(410);
		expect(statusOf({ status: 422 })).toBeUndefined();
		expect(statusOf({ statusCode: '409' })).toBeUndefined();
		expect(statusOf(new Error('x'))).toBeUndefined();
	});
});
