/**
 * Three projects:
 *  - unit:    handlers, validation, transport, token cache, signatures (no n8n).
 *  - sandbox: the local stand-in of the payments service, tested against the spec.
 *  - e2e:     a real n8n (installed once into a cache folder) with this package
 *             installed as a community package, talking to the sandbox.
 */
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.dev.json' }];
const common = {
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': tsJest },
	moduleFileExtensions: ['ts', 'js', 'json'],
};
module.exports = {
	projects: [
		{ ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/test/repo/**/*.test.ts'], globals: { ZOD_MAJOR: 3 } },
		// The unit tests again with the zod a newer n8n ships (zod 4, devDependency
		// alias zod4): the nodes import 'zod/v3', which zod 3.25+ and zod 4 both provide.
		{
			...common,
			displayName: 'unit-zod4',
			testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
			moduleNameMapper: { '^zod$': 'zod4', '^zod/(.*)$': 'zod4/$1' },
			globals: { ZOD_MAJOR: 4 },
		},
		{ ...common, displayName: 'sandbox', testMatch: ['<rootDir>/test/sandbox/**/*.test.ts'] },
		{
			...common,
			displayName: 'e2e',
			testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
			globalSetup: '<rootDir>/test/harness/jest-global-setup.ts',
			globalTeardown: '<rootDir>/test/harness/jest-global-teardown.ts',
			// testTimeout is a global-only option in jest 29; the e2e project sets
			// its own (n8n runs are slow on a shared 2-core machine) in this file.
			setupFilesAfterEnv: ['<rootDir>/test/harness/jest-e2e-setup.ts'],
		},
	],
};
