// The community-node lint n8n holds published packages to, plus the older
// n8n-nodes-base rule set for node and credential descriptions.
import tseslint from 'typescript-eslint';
import { configs as community } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

export default [
	{ ignores: ['dist/**', 'build/**', 'node_modules/**', 'sandbox/**', 'test/**', 'bench/**', 'scripts/**', 'examples/**'] },
	{
		files: ['**/*.ts'],
		languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
	},
	{
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
	},
	{ ...community.recommended, files: ['**/*.ts', 'package.json'] },
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// The icon lives beside the credential; the rule expects the old "file:" form only.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// n8n 1.x+ connection types are NodeConnectionTypes.Main, which these older rules do not know.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
];
