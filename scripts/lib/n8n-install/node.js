'use strict';
/*
 * The Node that runs n8n: this one when it fits n8n's engines, else that
 * major from the npm registry (the node-<platform>-<arch> package) in the cache.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { UserError, cacheRoot, cleanEnv, say } = require('./common');
const { run } = require('./run');

function requiredNodeMajor(engines) {
	const min = /(?:>=|\^|~)?\s*v?(\d+)/.exec(engines || '');
	return min ? Number(min[1]) : 20;
}

function nodeFits(engines, major) {
	const required = requiredNodeMajor(engines);
	const upper = /<=?\s*v?(\d+)/.exec(engines || '');
	return major >= required && (!upper || major <= Number(upper[1]));
}

/** The version a Node binary reports ('' when it does not run). */
function nodeVersionOf(nodeBin) {
	const res = spawnSync(nodeBin, ['-p', 'process.versions.node'], { encoding: 'utf8' });
	return res.status === 0 ? res.stdout.trim() : '';
}

function nodeMajor(nodeBin) {
	return Number(nodeVersionOf(nodeBin).split('.')[0]) || 0;
}

async function ensureNode(engines) {
	const own = Number(process.versions.node.split('.')[0]);
	if (nodeFits(engines, own)) return process.execPath;
	const major = requiredNodeMajor(engines);
	const platformPackage = `node-${process.platform}-${process.arch}`;
	const dir = path.join(cacheRoot(), `node-${major}`);
	const bin = path.join(dir, 'node_modules', platformPackage, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
	if (fs.existsSync(bin) && nodeMajor(bin) === major) return bin;
	say(`n8n needs Node ${engines}; this is Node ${process.versions.node}: installing Node ${major} from the npm registry (${platformPackage})`);
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'payonus-node-runtime', private: true }, null, 2));
	await run(`Node ${major}`, 'npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', `${platformPackage}@${major}`], {
		cwd: dir,
		env: cleanEnv(),
	});
	if (nodeMajor(bin) !== major) throw new UserError(`Node ${major} from ${platformPackage} does not run on this machine`);
	return bin;
}

module.exports = { requiredNodeMajor, nodeFits, nodeVersionOf, nodeMajor, ensureNode };
