/**
 * The parts of the context (lib/context.ts) a unit test of a use case needs,
 * on the test's own database: the throttle with the default limits, and the
 * unknown-username aggregation. One per database, like the server's one per process.
 */
import type { ClientRecord } from './clients/repository.ts';
import type { Database } from './db/database.ts';
import type { Mail, Mailer } from './mail/mailer.ts';
import { createLogger, type Log } from './ops/log.ts';
import { unknownUsernameFailures, type UnknownUsernameFailures } from './platform/source-counts.ts';
import { createThrottle, throttleSettings, type Throttle } from './platform/throttle.ts';

export interface TestContext {
  db: Database;
  throttle: Throttle;
  signInFailures: UnknownUsernameFailures;
  /** Silent: a test that reads the log passes its own (lib/ops/log.ts memoryLog). */
  log: Log;
  /** The issuer unit tests act for (the passkeys' relying party), and the brand their mails wear. */
  config: { ISSUER: string; BRAND_NAME: string; BRAND_ACCENT_COLOR: string; PASSWORD_MIN_LENGTH: number };
}

export const TEST_ISSUER = 'https://id.gatehouse.test';
const TEST_CONFIG = { ISSUER: TEST_ISSUER, BRAND_NAME: 'Gatehouse', BRAND_ACCENT_COLOR: '#4f46e5', PASSWORD_MIN_LENGTH: 8 };

const contexts = new WeakMap<Database, TestContext>();

export function testContext(db: Database): TestContext {
  let ctx = contexts.get(db);
  if (!ctx) {
    ctx = {
      db,
      throttle: createThrottle({ db, settings: throttleSettings() }),
      signInFailures: unknownUsernameFailures(),
      log: createLogger({ level: 'silent' }),
      config: TEST_CONFIG,
    };
    contexts.set(db, ctx);
  }
  return ctx;
}

/**
 * Locks an account in the shared counters (the database's, or Redis with
 * `redisUrl`) as a guessing run would: a one-off throttle with the default
 * limits except that the first wrong password from a new browser locks new
 * browsers out, as a hundred from a hundred addresses do (throttle.test.ts
 * walks the defaults to it), until the day ends.
 */
export async function lockAccount(db: Database, user: { id: string; username: string }, redisUrl?: string): Promise<void> {
  const defaults = throttleSettings();
  const throttle = createThrottle({
    db,
    redisUrl,
    settings: { ...defaults, newBrowsers: { ...defaults.newBrowsers, free: 1, lockAfter: 1, cap: 1 } },
    sweepEveryMs: 0,
  });
  try {
    const attempt = { account: { id: user.id }, username: user.username, ip: '203.0.113.50' };
    const check = await throttle.beforePasswordCheck(attempt);
    if (!check.allowed) throw new Error(`lockAccount: the attempt was refused (${check.reason})`);
    if (!(await throttle.passwordFailed(attempt)).locked) throw new Error('lockAccount: the failure did not lock the account');
  } finally {
    await throttle.close();
  }
}

/** A stored client as the repository returns it: a confidential resource server (client_credentials, introspect), with `overrides`. */
export function clientRecord(overrides: Partial<ClientRecord> = {}): ClientRecord {
  return {
    id: 'c1',
    name: 'Orders API',
    confidential: true,
    redirectUris: [],
    postLogoutRedirectUris: [],
    grantTypes: ['client_credentials'],
    scope: 'introspect',
    tokenEndpointAuthMethod: 'client_secret_post',
    applicationType: 'web',
    logoUri: null,
    firstParty: false,
    resourceServer: true,
    adminApi: false,
    adminRole: 'admin',
    idTokenSignedResponseAlg: 'RS256',
    requireSecondFactor: false,
    backchannelLogoutUri: null,
    backchannelLogoutSessionRequired: false,
    registeredDynamically: false,
    approvalPending: false,
    initialAccessTokenId: null,
    lastUsedAt: null,
    requirePushedAuthorizationRequests: false,
    requestObjectSigningAlg: null,
    jwks: null,
    dpopBoundAccessTokens: false,
    subjectType: 'public',
    sectorIdentifierUri: null,
    enabled: true,
    createdAt: new Date('2026-01-02T03:04:05.000Z'),
    updatedAt: new Date('2026-01-02T03:04:05.000Z'),
    ...overrides,
  };
}

/**
 * A mailer that keeps what it is given (`sent`), refuses everything while
 * `down` (a mail server that is down), or, with mode `off`, is a server without
 * mail. For the use cases that send links.
 */
export function capturingMailer(mode: 'smtp' | 'off' = 'smtp') {
  const sent: Mail[] = [];
  const mailer: Mailer & { down: boolean } = {
    mode,
    destination: 'the test',
    down: false,
    async send(mail) {
      if (mailer.down || mode === 'off') throw new Error('connect ECONNREFUSED 127.0.0.1:25');
      sent.push(mail);
    },
    close() {},
  };
  return { sent, mailer };
}
