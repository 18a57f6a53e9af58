// Which Node runs Gatehouse. It needs Node 22 or newer: better-sqlite3 13's
// Node-API binary does not load on Node 20, and better-sqlite3 12 aborts Node 24.
// On an older Node (Node 20 is end of life but still the
// system Node of some machines), `npm install` fetches Node 24 from the npm
// registry into node_modules/.gatehouse-node (the registry's node-<os>-<cpu>
// package: the official binary) and scripts/node.mjs runs the app on it; with
// Node 22 or newer nothing is fetched and the running Node is used.
//
// `node scripts/runtime.mjs` (postinstall): fetch when the running Node is too old.
// Plain JavaScript that any Node since 18 runs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MINIMUM_MAJOR = 22;
/** What is fetched for an older Node: the current LTS line, its newest release at install time. */
export const FETCHED_LINE = '24';

const root = resolve(fileURLToPath(import.meta.url), '..', '..');
const fetchedDir = join(root, 'node_modules', '.gatehouse-node');
const platformPackage = () => (['linux', 'darwin'].includes(process.platform) ? `node-${process.platform}-${process.arch}` : undefined);

export const major = (version) => Number(/^v?(\d+)/.exec(version)?.[1] ?? 0);
export const supported = (version = process.version) => major(version) >= MINIMUM_MAJOR;

/** The fetched Node's binary, when there is one. */
export function fetchedNode() {
  const name = platformPackage();
  if (!name) return undefined;
  const bin = join(fetchedDir, 'node_modules', name, 'bin', 'node');
  return existsSync(bin) ? bin : undefined;
}

/** The Node to run the app with: this one when it is new enough, else the fetched one, else undefined. */
export function runtimeNode() {
  if (supported()) return process.execPath;
  const fetched = fetchedNode();
  if (!fetched) return undefined;
  const { version } = JSON.parse(readFileSync(join(fetched, '..', '..', 'package.json'), 'utf8'));
  return supported(version) ? fetched : undefined;
}

export function unsupportedMessage() {
  return (
    `Gatehouse needs Node ${MINIMUM_MAJOR} or newer; this is Node ${process.version}. ` +
    '`npm install` fetches Node 24 for it on Linux and macOS (run it again), or put Node 22 or newer first on PATH.'
  );
}

function fetchNode() {
  if (runtimeNode()) return;
  const name = platformPackage();
  if (!name) {
    console.warn(`[gatehouse] ${unsupportedMessage()}`);
    return;
  }
  console.log(`[gatehouse] Node ${process.version} is older than ${MINIMUM_MAJOR}: fetching Node ${FETCHED_LINE} (${name}) into node_modules/.gatehouse-node`);
  mkdirSync(fetchedDir, { recursive: true });
  // The npm that runs this install (npm_execpath), else the one on PATH.
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
  const result = spawnSync(
    npm[0],
    [...npm.slice(1), 'install', '--prefix', fetchedDir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${name}@${FETCHED_LINE}`],
    { stdio: 'inherit' },
  );
  if (result.status !== 0 || !runtimeNode()) {
    console.error(`[gatehouse] fetching Node ${FETCHED_LINE} failed. ${unsupportedMessage()}`);
    process.exit(1);
  }
  console.log(`[gatehouse] npm start, npm test and the other npm scripts run on ${runtimeNode()}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) fetchNode();
