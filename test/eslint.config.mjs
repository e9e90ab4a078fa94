// test/ is development code and never published. `npm run lint` runs
// `n8n-node lint` (= `eslint .` with the root eslint.config.mjs, which strict
// mode requires to be the node-cli template unchanged) with ESLint's
// config-lookup-from-file flag, so files here get this config instead: none of
// n8n's package rules (no process/console/node imports...) apply to dev code.
export default [{ ignores: ['**/*'] }];
