/**
 * `npm run gatehouse -- <group> <command> [options]`: the scriptable admin CLI (its commands are
 * `cli/main.ts`). Output is for people by default and JSON with --json. Exit status: 0 on success,
 * 1 on a runtime failure (not found, already taken), 2 on bad arguments or input; every failure is
 * one line on stderr.
 */
import { runGatehouse } from './main.ts';

const code = await runGatehouse(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
// The database is closed, but the Wasm that Prisma and the schema engine load
// keeps a natural exit waiting: exit as soon as the output is flushed.
await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((done) => stream.write('', done))));
process.exit(code);
