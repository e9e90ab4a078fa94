// test/ is development code, never published: keep it out of the package lint
// (n8n-node lint runs `eslint .` with the root template config).
export default [{ ignores: ['**/*'] }];
