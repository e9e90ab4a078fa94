// build/ holds the compiled sandbox, harness, scripts and benches (never
// published). `n8n-node lint` lints every folder but dist/; this config keeps
// it out of build/, as sandbox/eslint.config.mjs does for the sources.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
fs.writeFileSync(path.join(__dirname, '..', 'build', 'eslint.config.mjs'), "export default [{ ignores: ['**/*'] }];\n");
