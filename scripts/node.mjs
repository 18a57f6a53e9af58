// `node scripts/node.mjs [node options] script [args]`: what the npm scripts run
// the app with. On Node 22 or newer it is that Node; on an older one, the Node 24
// that `npm install` fetched (scripts/runtime.mjs). Its bin folder goes first on
// PATH, so whatever the script starts as `node` runs on it too. Exits as the
// script did (128 + the signal's number when a signal ended it, as a shell reports
// it); SIGINT, SIGTERM and SIGHUP are passed on to it.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { delimiter, dirname } from 'node:path';
import { onParentGone } from './parent-watch.mjs';
import { runtimeNode, unsupportedMessage } from './runtime.mjs';

const node = runtimeNode();
if (!node) {
  console.error(`[gatehouse] ${unsupportedMessage()}`);
  process.exit(1);
}
// GATEHOUSE_WRAPPER_PID: the server stops should this process vanish without passing a signal on (scripts/server.mjs).
const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`, GATEHOUSE_WRAPPER_PID: String(process.pid) };
const child = spawn(node, process.argv.slice(2), { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  // Ctrl-C reaches the child from the terminal too; a supervisor's signal reaches only this process.
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1)));

// Run by an npm script (npm sets npm_lifecycle_event), this process lives no longer than that run:
// npm passes a SIGTERM or SIGINT on to its shell only, and a shell that does not pass it on (one that
// did not `exec`, as package.json's start does) dies and leaves us to init, the server still serving,
// as does npm killed outright. Then stop the script as a supervisor would, and exit with it. Not when
// run by hand (`nohup node scripts/node.mjs ... &` outlives its shell on purpose).
if (process.env.npm_lifecycle_event) onParentGone(() => child.kill('SIGTERM'));
