// Whether this process's parent is gone, checked on a timer that keeps nothing alive: for the
// processes of `npm start` (scripts/node.mjs, scripts/server.mjs) that must not outlive the one
// that started them, serving on, orphaned, when it vanished without passing a signal on.
import { readFileSync } from 'node:fs';

/** How often the parent is looked at. */
const CHECK_MS = 500;

/** Calls `onGone` once, within CHECK_MS of the parent this process had at start being gone. */
export function onParentGone(onGone) {
  const parent = process.ppid; // read once by Node at start: it does not follow a change
  const watch = setInterval(() => {
    if (!parentGone(parent)) return;
    clearInterval(watch);
    onGone();
  }, CHECK_MS).unref();
}

/**
 * Whether `parent` is no longer this process's parent: on Linux, the parent /proc gives now (a process
 * is handed to init, or a subreaper, the moment its parent exits); elsewhere, whether it still exists.
 */
function parentGone(parent) {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent;
  } catch {
    try {
      process.kill(parent, 0);
      return false;
    } catch (error) {
      return error.code === 'ESRCH';
    }
  }
}
