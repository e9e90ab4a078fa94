const { src, dest } = require('gulp');

// tsc compiles the code; this copies what tsc does not: node and credential
// icons (light and dark SVG) and the codex JSON files beside each node.
function copyAssets() {
	return src(['nodes/**/*.{svg,png,json}', 'credentials/**/*.{svg,png}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports['build:assets'] = copyAssets;
exports.default = copyAssets;
