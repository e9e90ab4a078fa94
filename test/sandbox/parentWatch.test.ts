/**
 * whenParentGone (sandbox/parentWatch.ts): the command stops itself once its
 * parent shell is gone. Time and the parent id are injected.
 */
import { whenParentGone } from '../../sandbox/parentWatch';
import { ManualTimers } from '../../sandbox/timers';

function watch() {
	const timers = new ManualTimers();
	let parent = 4242;
	let gone = 0;
	const stop = whenParentGone(() => gone++, { everyMs: 1000, ppid: () => parent, timers });
	return {
		timers,
		reparent: (pid: number) => (parent = pid),
		gone: () => gone,
		stop,
	};
}

test('nothing happens while the parent stays', () => {
	const w = watch();
	w.timers.advance(60_000);
	expect(w.gone()).toBe(0);
	expect(w.timers.pending).toBe(1);
});

test('calls back once, at the next look after the process is re-parented, and stops looking', () => {
	const w = watch();
	w.timers.advance(2500);
	w.reparent(1);
	w.timers.advance(499);
	expect(w.gone()).toBe(0);
	w.timers.advance(1);
	expect(w.gone()).toBe(1);
	w.timers.advance(60_000);
	expect(w.gone()).toBe(1);
	expect(w.timers.pending).toBe(0);
});

test('the returned function stops watching', () => {
	const w = watch();
	w.stop();
	w.reparent(1);
	w.timers.advance(10_000);
	expect(w.gone()).toBe(0);
	expect(w.timers.pending).toBe(0);
});
