const fs = require('fs');
const { src, dest } = require('gulp');

// tsc compiles the code; this copies what tsc does not: node and credential
// icons (light and dark SVG) and the codex JSON files beside each node.
function copyAssets() {
	return src(['nodes/**/*.{svg,png,json}', 'credentials/**/*.{svg,png}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

// Empties dist/ before a build (as `n8n-node build` does), so files of
// renamed or deleted sources never reach the published package.
async function clean() {
	fs.rmSync('dist', { recursive: true, force: true });
}

exports['build:assets'] = copyAssets;
exports.clean = clean;
exports.default = copyAssets;
