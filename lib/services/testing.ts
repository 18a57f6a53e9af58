/**
 * The parts of the context (lib/context.ts) a unit test of a use case needs,
 * on the test's own database: the throttle with the default limits, and the
 * unknown-username aggregation. One per database, like the server's one per process.
 */
import type { Database } from '../db/database.ts';
import { unknownUsernameFailures, type UnknownUsernameFailures } from './sign-in-failures.ts';
import { createThrottle, throttleSettings, type Throttle } from './throttle.ts';

export interface TestContext {
  db: Database;
  throttle: Throttle;
  signInFailures: UnknownUsernameFailures;
}

const contexts = new WeakMap<Database, TestContext>();

export function testContext(db: Database): TestContext {
  let ctx = contexts.get(db);
  if (!ctx) {
    ctx = { db, throttle: createThrottle({ db, settings: throttleSettings() }), signInFailures: unknownUsernameFailures() };
    contexts.set(db, ctx);
  }
  return ctx;
}
