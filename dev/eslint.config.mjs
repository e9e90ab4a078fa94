// dev/ is development code, never published. `npm run lint:package` runs
// `n8n-node lint` (= `eslint .` with the root eslint.config.mjs, which strict
// mode requires to be the node-cli template unchanged) with ESLint's
// config-lookup-from-file flag, so files here get this config and are skipped:
// n8n's package rules (no process/console/node imports...) do not fit dev code.
// `npm run lint:dev` lints this folder with eslint.dev.config.mjs instead.
export default [{ ignores: ['**/*'] }];
