// `node scripts/node.mjs [node options] script [args]`: what the npm scripts run
// the app with. On Node 22 or newer it is that Node; on an older one, the Node 24
// that `npm install` fetched (scripts/runtime.mjs). Its bin folder goes first on
// PATH, so whatever the script starts as `node` runs on it too. Exits as the
// script did (128 + the signal's number when a signal ended it, as a shell reports
// it); SIGINT, SIGTERM and SIGHUP are passed on to it.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { delimiter, dirname } from 'node:path';
import { runtimeNode, unsupportedMessage } from './runtime.mjs';

/** How often a wrapper run by npm looks whether npm (or its shell) is still its parent. */
const PARENT_CHECK_MS = 500;

const node = runtimeNode();
if (!node) {
  console.error(`[gatehouse] ${unsupportedMessage()}`);
  process.exit(1);
}
const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
const child = spawn(node, process.argv.slice(2), { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  // Ctrl-C reaches the child from the terminal too; a supervisor's signal reaches only this process.
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1)));

// Run by an npm script (npm sets npm_lifecycle_event), this process lives no longer than that run:
// npm passes a SIGTERM or SIGINT on to its shell only, and a shell that does not pass it on (one that
// did not `exec`, as package.json's start does) dies and leaves us to init, the server still serving,
// as does npm killed outright. Then our parent is gone: stop the script as a supervisor would, and
// exit with it. A cheap check, on a timer that keeps nothing alive; not when run by hand
// (`nohup node scripts/node.mjs ... &` outlives its shell on purpose).
if (process.env.npm_lifecycle_event) {
  const parent = process.ppid; // read once at start by Node: it does not follow a change
  const watch = setInterval(() => {
    if (!parentGone(parent)) return;
    clearInterval(watch);
    child.kill('SIGTERM');
  }, PARENT_CHECK_MS).unref();
}

/**
 * Whether `parent` is no longer this process's parent: on Linux, the parent /proc says we have now (we
 * are handed to init, or a subreaper, the moment it exits); elsewhere, whether it still exists.
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
