// @ts-check
'use strict';
/*
 * The Node that runs n8n: this one when it fits n8n's engines, else that
 * major from the npm registry (the node-<platform>-<arch> package) in the cache.
 * And that Node's C headers, which node-gyp needs to build sqlite3: from the
 * Node's own install when it ships them, else from the same registry package
 * at the same version (it carries include/node). node-gyp would otherwise
 * download them from the Node.js download site, which is not the registry.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { UserError, cacheRoot, cleanEnv, say } = require('./common');
const { run } = require('./run');

/**
 * The lowest Node major an engines range allows (20 when it says nothing).
 * @param {string} engines like ">=20.19 <= 24.x"
 * @returns {number}
 */
function requiredNodeMajor(engines) {
	const min = /(?:>=|\^|~)?\s*v?(\d+)/.exec(engines || '');
	return min ? Number(min[1]) : 20;
}

/**
 * Whether Node `major` is inside the engines range.
 * @param {string} engines
 * @param {number} major
 * @returns {boolean}
 */
function nodeFits(engines, major) {
	const required = requiredNodeMajor(engines);
	const upper = /<=?\s*v?(\d+)/.exec(engines || '');
	return major >= required && (!upper || major <= Number(upper[1]));
}

/**
 * The version a Node binary reports ('' when it does not run).
 * @param {string} nodeBin
 * @returns {string}
 */
function nodeVersionOf(nodeBin) {
	const res = spawnSync(nodeBin, ['-p', 'process.versions.node'], { encoding: 'utf8' });
	return res.status === 0 ? res.stdout.trim() : '';
}

/**
 * @param {string} nodeBin
 * @returns {number} its major version (0 when it does not run)
 */
function nodeMajor(nodeBin) {
	return Number(nodeVersionOf(nodeBin).split('.')[0]) || 0;
}

const platformPackage = `node-${process.platform}-${process.arch}`;

/**
 * Installs `spec` of the node-<platform>-<arch> package into `dir` (scripts off).
 * @param {string} what  for progress lines
 * @param {string} dir
 * @param {string | number} spec  a major or an exact version
 */
async function installNodePackage(what, dir, spec) {
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'payonus-node-runtime', private: true }, null, 2));
	await run(what, 'npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', `${platformPackage}@${spec}`], {
		cwd: dir,
		env: cleanEnv(),
	});
}

/**
 * The Node binary that runs an n8n with these engines (installed into the cache when this one does not fit).
 * @param {string} engines
 * @returns {Promise<string>}
 */
async function ensureNode(engines) {
	const own = Number(process.versions.node.split('.')[0]);
	if (nodeFits(engines, own)) return process.execPath;
	const major = requiredNodeMajor(engines);
	const dir = path.join(cacheRoot(), `node-${major}`);
	const bin = path.join(dir, 'node_modules', platformPackage, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
	if (fs.existsSync(bin) && nodeMajor(bin) === major) return bin;
	say(`n8n needs Node ${engines}; this is Node ${process.versions.node}: installing Node ${major} from the npm registry (${platformPackage})`);
	await installNodePackage(`Node ${major}`, dir, major);
	if (nodeMajor(bin) !== major) throw new UserError(`Node ${major} from ${platformPackage} does not run on this machine`);
	return bin;
}

/**
 * The Node version whose headers `dir/include/node` holds ('' when none).
 * @param {string} dir
 * @returns {string}
 */
function headersVersion(dir) {
	let text;
	try {
		text = fs.readFileSync(path.join(dir, 'include', 'node', 'node_version.h'), 'utf8');
	} catch {
		return '';
	}
	const part = (/** @type {string} */ name) => new RegExp(`#define NODE_${name}_VERSION (\\d+)`).exec(text)?.[1];
	const [major, minor, patch] = [part('MAJOR'), part('MINOR'), part('PATCH')];
	return major && minor && patch ? `${major}.${minor}.${patch}` : '';
}

/**
 * A folder to give node-gyp as `nodedir` for `nodeBin`: one holding
 * include/node with the headers of exactly that Node version. The Node's own
 * install (<prefix>/bin/node -> <prefix>/include/node) when it has them; else
 * the registry's node-<platform>-<arch> package of that version, fetched once
 * into the cache. `cacheDir` is where such a package goes.
 * @param {string} nodeBin
 * @param {string} [cacheDir]
 * @returns {Promise<string>}
 */
async function ensureNodeHeaders(nodeBin, cacheDir = cacheRoot()) {
	const version = nodeVersionOf(nodeBin);
	if (!version) throw new UserError(`the Node at ${nodeBin} does not run`);
	const prefix = path.resolve(path.dirname(fs.realpathSync(nodeBin)), '..');
	if (headersVersion(prefix) === version) return prefix;
	const dir = path.join(cacheDir, `node-headers-${version}`);
	const pkg = path.join(dir, 'node_modules', platformPackage);
	if (headersVersion(pkg) === version) return pkg;
	say(`Node ${version} has no C headers installed (node-gyp needs them to build sqlite3): fetching them from the npm registry (${platformPackage}@${version})`);
	await installNodePackage(`Node ${version} headers`, dir, version);
	if (headersVersion(pkg) !== version) {
		throw new UserError(`${platformPackage}@${version} from the npm registry has no include/node headers for Node ${version}`);
	}
	return pkg;
}

module.exports = { requiredNodeMajor, nodeFits, nodeVersionOf, nodeMajor, ensureNode, ensureNodeHeaders, headersVersion };
