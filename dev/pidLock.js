// @ts-check
'use strict';
/*
 * Lock files holding a process id: one installer per n8n version, one
 * `npm start` per folder. Plain JavaScript, shared by the installer (run
 * before any build) and scripts/start.ts.
 */
const fs = require('node:fs');
const path = require('node:path');

/**
 * True while a process with this id runs (EPERM: it runs, as another user).
 * @param {number} pid
 * @returns {boolean}
 */
function pidAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

/**
 * Takes the lock file for this process: `{ held: true }`, or `{ held: false,
 * holder }` while another live process holds it. A lock left by a process
 * that is gone (killed) is taken over.
 * @param {string} file
 * @returns {{ held: true } | { held: false, holder: number }}
 */
function tryLock(file) {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	for (;;) {
		try {
			fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
			return { held: true };
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
			let holder = 0;
			try {
				holder = Number(fs.readFileSync(file, 'utf8')) || 0;
			} catch {
				continue; // released meanwhile
			}
			if (holder && holder !== process.pid && pidAlive(holder)) return { held: false, holder };
			fs.rmSync(file, { force: true });
		}
	}
}

/**
 * Removes the lock file when this process holds it.
 * @param {string} file
 */
function releaseLock(file) {
	try {
		if (Number(fs.readFileSync(file, 'utf8')) === process.pid) fs.rmSync(file, { force: true });
	} catch {
		// already gone
	}
}

module.exports = { pidAlive, tryLock, releaseLock };
