// Lint for the development code: sandbox/, dev/, test/, bench/, scripts/ and the root
// config files (`npm run lint:dev`, part of `npm run lint`). The package
// (nodes/, credentials/) is linted by `npm run lint:package` (n8n-node lint,
// with n8n's community-node rules, which fit only published node code: they
// forbid process, console, timers and Node imports that tests and tools need).
// Plain ESLint + typescript-eslint recommended, plus the few type-aware rules
// that catch real bugs in async test and tool code (cheap here: about 15 s).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['dist/**', 'build/**', 'node_modules/**', 'nodes/**', 'credentials/**', 'bench/results/**', '.payonus-start/**', '.n8n-e2e/**'] },
	{
		files: ['**/*.{js,mjs,cjs,ts}'],
		extends: [js.configs.recommended],
		languageOptions: { globals: { ...globals.node } },
		rules: {
			// a `let` assigned once but read earlier by a closure (a shutdown handler
			// that runs before startup finished) must stay a `let`
			'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
		},
	},
	{
		files: ['**/*.js'],
		languageOptions: { sourceType: 'commonjs' },
	},
	{
		files: ['**/*.ts'],
		extends: [tseslint.configs.recommended],
		languageOptions: {
			parserOptions: { project: './tsconfig.dev.json', tsconfigRootDir: import.meta.dirname },
		},
		rules: {
			// type-aware, and worth their cost: a promise nobody awaits hides a
			// failure (a test that passes while its request is still running)
			'@typescript-eslint/no-floating-promises': 'error',
			'@typescript-eslint/await-thenable': 'error',
			'@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
			// not no-unnecessary-type-assertion: since typescript-eslint 8.7x it also
			// flags `fn.call(ctx) as T` and asks for explicit type arguments instead,
			// which reads worse in tests; `tsc` already types every cast
			// `_unused` marks a deliberately ignored argument or destructured field
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
			],
		},
	},
	{
		files: ['test/**/*.ts'],
		languageOptions: { globals: { ...globals.jest } },
		rules: {
			// tests build odd inputs on purpose (malformed bodies, partial fakes of
			// n8n's context) and read JSON answers: a cast to `any` there is the
			// clearest way to say "whatever the service or n8n hands back"
			'@typescript-eslint/no-explicit-any': 'off',
			// jest's expect(...).rejects and mock factories need require() in a few places
			'@typescript-eslint/no-require-imports': 'off',
		},
	},
);
