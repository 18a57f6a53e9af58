/**
 * Tests of the CLI's command lines (run in this process through `cli/main.ts`,
 * and the real `cli/gatehouse.ts` in a process of its own for its exit status
 * and streams) against one temporary SQLite database shared by the whole file.
 * The client, user and usage groups touch disjoint state; tests inside a group
 * run in order.
 * `client update` has a file of its own (cli/client-update.test.ts): it runs on
 * every database, and each file gets its own time budget.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Sqlite from 'better-sqlite3';
import { closeDatabase, database } from '../lib/db/database.ts';
import { cliProcess, cliRunner, failure, ok } from './testing.ts';
import { verifyPassword } from '../lib/platform/passwords.ts';
import { createThrottle, throttleSettings } from '../lib/platform/throttle.ts';
import { beginTotpEnrolment, confirmTotpEnrolment, twoStepStatus } from '../lib/account/two-step.ts';
import { hasSecondFactor } from '../lib/factors/second-step.ts';
import { totpCode } from '../lib/factors/totp.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-cli-'));
const dbFile = path.join(dir, 'gatehouse.db');

const gatehouse = cliRunner(`file:${dbFile}`);

function passwordHash(username: string): string {
  const db = new Sqlite(dbFile, { readonly: true });
  try {
    return (db.prepare('SELECT password_hash FROM users WHERE username = ?').get(username) as { password_hash: string }).password_hash;
  } finally {
    db.close();
  }
}

// Migrate once up front, so the concurrent groups never race to create the schema.
before(async () => assert.deepEqual(JSON.parse(ok(await gatehouse(['client', 'list', '--json'])).stdout), []));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('gatehouse CLI', { concurrency: true }, () => {
  describe('usage', { concurrency: 1 }, () => {
    test('the real entry point, in a process of its own: the answer on stdout and exit 0, one failure line on stderr and exit 2', async () => {
      const help = await cliProcess(['client', '--help'], { databaseUrl: `file:${dbFile}` });
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, /^Usage: npm run gatehouse -- client <command>/);
      const refused = await cliProcess(['user', 'create', 'eve', '--password', 'x'], { databaseUrl: `file:${dbFile}`, input: 'ignored' });
      assert.equal(refused.code, 2);
      assert.match(failure(refused), /passwords are not accepted as arguments/);
      assert.equal(refused.stdout, '');
    });

    test('unknown command exits 2', async () => {
      const run = await gatehouse(['frobnicate']);
      assert.equal(run.code, 2);
      assert.match(failure(run), /unknown command 'frobnicate'/);
    });

    test("--help prints a command's usage and exits 0", async () => {
      const run = ok(await gatehouse(['user', 'create', '--help']));
      assert.match(run.stdout, /--generate-password/);
      assert.match(run.stdout, /never accepted as an argument/);
    });

    test('client create without --name exits 2', async () => {
      const run = await gatehouse(['client', 'create', '--redirect-uri', 'https://app.example/cb']);
      assert.equal(run.code, 2);
      assert.match(failure(run), /--name is required/);
    });

    test('a plain-http redirect URI exits 2, naming the flag, before any database is created', async () => {
      const untouched = path.join(dir, 'untouched.db');
      const run = await gatehouse(['client', 'create', '--name', 'Bad', '--redirect-uri', 'http://example.com'], { databaseUrl: `file:${untouched}` });
      assert.equal(run.code, 2);
      assert.match(failure(run), /--redirect-uri: http:\/\/example\.com must use https/);
      assert.equal(existsSync(untouched), false);
    });

    test('client update is listed, and its --help names the --no- forms', async () => {
      assert.match(ok(await gatehouse(['client', '--help'])).stdout, /update\s+change a client's settings/);
      const run = ok(await gatehouse(['client', 'update', '--help']));
      assert.match(run.stdout, /Usage: gatehouse client update <client_id>/);
      assert.match(run.stdout, /--\[no-\]require-second-factor/);
    });

    test('a database readable by others is narrowed to its owner, said on stderr: stdout stays the answer', async () => {
      const own = path.join(dir, 'old-install');
      mkdirSync(own, { mode: 0o755 });
      const file = path.join(own, 'gatehouse.db');
      ok(await gatehouse(['client', 'list', '--json'], { databaseUrl: `file:${file}` }));
      chmodSync(own, 0o755);
      chmodSync(file, 0o644);
      const run = ok(await gatehouse(['client', 'list', '--json'], { databaseUrl: `file:${file}` }));
      assert.deepEqual(JSON.parse(run.stdout), []);
      assert.match(run.stderr, /the database files were readable by others: narrowed to the owner/);
      assert.deepEqual([statSync(own).mode & 0o777, statSync(file).mode & 0o777], [0o700, 0o600]);
    });

    test('a password argument is refused without echoing it', async () => {
      const run = await gatehouse(['user', 'create', 'mallory', '--password=hunter2hunter2']);
      assert.equal(run.code, 2);
      assert.match(failure(run), /not accepted as arguments/);
      assert.doesNotMatch(run.stderr, /hunter2/);
    });
  });

  describe('clients', { concurrency: 1 }, () => {
    let confidential: Record<string, unknown>;
    let secret: string;
    let publicClient: Record<string, unknown>;

    test('client create: a confidential client gets a 43-character base64url secret, once', async () => {
      const run = ok(await gatehouse(['client', 'create', '--name', 'Web App', '--redirect-uri', 'https://app.example/cb', '--json']));
      confidential = JSON.parse(run.stdout);
      secret = confidential.client_secret as string;
      assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(confidential.client_name, 'Web App');
      assert.equal(confidential.token_endpoint_auth_method, 'client_secret_basic');
      assert.deepEqual(confidential.redirect_uris, ['https://app.example/cb']);
      assert.equal(confidential.id_token_signed_response_alg, 'ES256', 'new clients get ES256 by default');
      assert.match(run.stderr, /cannot show it again/);
    });

    test('client create --public: no secret, auth method none, scopes from --scopes', async () => {
      const run = ok(
        await gatehouse([
          'client',
          'create',
          '--name',
          'SPA',
          '--public',
          '--redirect-uri',
          'http://localhost:5173/cb',
          '--scopes',
          'openid profile',
          '--json',
        ]),
      );
      publicClient = JSON.parse(run.stdout);
      assert.equal('client_secret' in publicClient, false);
      assert.equal(publicClient.token_endpoint_auth_method, 'none');
      assert.equal(publicClient.scope, 'openid profile');
    });

    test('client create --id-token-alg RS256 keeps RS256; any other value exits 2 naming the flag, before any database is created', async () => {
      const untouched = path.join(dir, 'untouched-alg.db');
      const refused = await gatehouse(['client', 'create', '--name', 'Bad', '--redirect-uri', 'https://app.example/cb', '--id-token-alg', 'HS256'], {
        databaseUrl: `file:${untouched}`,
      });
      assert.equal(refused.code, 2);
      assert.match(failure(refused), /--id-token-alg: The ID token signing algorithm is one of ES256, RS256/);
      assert.equal(existsSync(untouched), false);
      const created = JSON.parse(
        ok(await gatehouse(['client', 'create', '--name', 'Legacy RP', '--redirect-uri', 'https://legacy.example/cb', '--id-token-alg', 'RS256', '--json']))
          .stdout,
      );
      assert.equal(created.id_token_signed_response_alg, 'RS256');
      const text = ok(await gatehouse(['client', 'list'])).stdout;
      assert.match(text, /ID TOKEN ALG/);
      assert.match(text, new RegExp(`${created.client_id}\\s+Legacy RP\\s+confidential\\s+enabled\\s+RS256\\s+https://legacy\\.example/cb`));
      assert.match(text, new RegExp(`${publicClient.client_id}\\s+SPA\\s+public\\s+enabled\\s+ES256`));
      ok(await gatehouse(['client', 'delete', created.client_id]));
    });

    test('client list shows both clients and never a secret', async () => {
      const json = ok(await gatehouse(['client', 'list', '--json'])).stdout;
      const clients = JSON.parse(json) as Record<string, unknown>[];
      assert.deepEqual(
        clients.map((c) => c.client_id),
        [confidential.client_id, publicClient.client_id],
      );
      assert.ok(clients.every((c) => !('client_secret' in c)));
      const text = ok(await gatehouse(['client', 'list'])).stdout;
      assert.match(text, new RegExp(`${confidential.client_id}\\s+Web App\\s+confidential\\s+enabled\\s+ES256`));
      assert.ok(!json.includes(secret) && !text.includes(secret));
    });

    test('client disable, then delete; deleting an unknown client exits 1', async () => {
      assert.equal(JSON.parse(ok(await gatehouse(['client', 'disable', publicClient.client_id as string, '--json'])).stdout).enabled, false);
      ok(await gatehouse(['client', 'delete', publicClient.client_id as string]));
      const run = await gatehouse(['client', 'delete', publicClient.client_id as string]);
      assert.equal(run.code, 1);
      assert.match(failure(run), /no client with id/);
    });

    test('client create --admin-api: the admin scope with client_credentials; without the flag it exits 2', async () => {
      const args = ['client', 'create', '--name', 'Automation', '--grant-type', 'client_credentials', '--scope', 'admin'];
      const refused = await gatehouse(args);
      assert.equal(refused.code, 2);
      assert.match(failure(refused), /--scope: Only admin-API clients may have the admin scope/);
      const created = JSON.parse(ok(await gatehouse([...args, '--admin-api', '--json'])).stdout);
      assert.equal(created.admin_api, true);
      assert.equal(created.require_second_factor, false);
      assert.equal(created.scope, 'admin');
      assert.deepEqual(created.grant_types, ['client_credentials']);
      ok(await gatehouse(['client', 'delete', created.client_id]));
    });

    test('client create --require-second-factor: stored and shown as require_second_factor', async () => {
      const created = JSON.parse(
        ok(await gatehouse(['client', 'create', '--name', 'Payroll', '--redirect-uri', 'https://payroll.example/cb', '--require-second-factor', '--json']))
          .stdout,
      );
      assert.equal(created.require_second_factor, true);
      ok(await gatehouse(['client', 'delete', created.client_id]));
    });

    test('client create refuses a public resource server and the introspect scope beside a person-facing grant (exit 2)', async () => {
      const publicRs = await gatehouse([
        'client',
        'create',
        '--name',
        'Orders',
        '--public',
        '--resource-server',
        '--scope',
        'introspect',
        '--redirect-uri',
        'http://localhost:5173/cb',
      ]);
      assert.equal(publicRs.code, 2);
      assert.match(
        failure(publicRs),
        /--resource-server: Only confidential clients can be resource servers.*--grant-type: A client with the introspect scope uses the client_credentials grant only/,
      );
      const withCode = await gatehouse([
        'client',
        'create',
        '--name',
        'Orders',
        '--resource-server',
        '--scopes',
        'openid introspect',
        '--redirect-uri',
        'https://orders.example/cb',
      ]);
      assert.equal(withCode.code, 2);
      assert.match(failure(withCode), /--grant-type: A client with the introspect scope uses the client_credentials grant only/);
      const api = JSON.parse(
        ok(
          await gatehouse([
            'client',
            'create',
            '--name',
            'Orders API',
            '--grant-type',
            'client_credentials',
            '--scope',
            'introspect',
            '--resource-server',
            '--json',
          ]),
        ).stdout,
      );
      assert.deepEqual([api.client_type, api.resource_server, api.scope], ['confidential', true, 'introspect']);
      ok(await gatehouse(['client', 'delete', api.client_id]));
    });
  });

  describe('users', { concurrency: 1 }, () => {
    test('user create reads the password from stdin, dropping one newline', async () => {
      ok(await gatehouse(['user', 'create', 'alice', '--email', 'alice@example.com', '--name', 'Alice'], { input: 'correct horse battery\n' }));
      assert.ok(await verifyPassword(passwordHash('alice'), 'correct horse battery'));
      const users = JSON.parse(ok(await gatehouse(['user', 'list', '--json'])).stdout) as Record<string, unknown>[];
      const alice = users.find((u) => u.username === 'alice');
      assert.deepEqual([alice?.email, alice?.name, alice?.role, alice?.disabled], ['alice@example.com', 'Alice', 'user', false]);
      assert.ok(users.every((u) => !('password_hash' in u) && !('password' in u)));
    });

    test('user create --admin-role and user set-role: any role from the CLI, an unknown one exits 2, the last owner stays one', async () => {
      const created = JSON.parse(ok(await gatehouse(['user', 'create', 'olga', '--admin-role', 'owner', '--generate-password', '--json'])).stdout);
      assert.equal(created.role, 'owner');
      const refused = await gatehouse(['user', 'create', 'olaf', '--admin-role', 'root', '--generate-password']);
      assert.equal(refused.code, 2);
      assert.match(failure(refused), /--admin-role/);
      ok(await gatehouse(['user', 'create', 'rhea', '--generate-password']));
      assert.equal(JSON.parse(ok(await gatehouse(['user', 'set-role', 'rhea', 'auditor', '--json'])).stdout).role, 'auditor');
      assert.match(ok(await gatehouse(['user', 'set-role', 'rhea', 'user_manager'])).stdout, /rhea now has the user_manager role/);
      assert.equal(JSON.parse(ok(await gatehouse(['user', 'set-role', 'rhea', 'user', '--json'])).stdout).role, 'user');
      const unknown = await gatehouse(['user', 'set-role', 'rhea', 'superuser']);
      assert.equal(unknown.code, 2);
      assert.match(failure(unknown), /<role>/);
      const last = await gatehouse(['user', 'set-role', 'olga', 'admin']);
      assert.equal(last.code, 1);
      assert.match(failure(last), /olga is the only owner/);
      assert.equal((await gatehouse(['user', 'disable', 'olga'])).code, 1);
    });

    test('a duplicate username exits 1, in any case', async () => {
      for (const username of ['alice', 'ALICE']) {
        const run = await gatehouse(['user', 'create', username, '--password-stdin'], { input: 'another password' });
        assert.equal(run.code, 1, username);
        assert.match(failure(run), new RegExp(`${username} already exists`));
      }
    });

    test('user set-password --generate-password prints the new password once, and the sessions it ended', async () => {
      const db = new Sqlite(dbFile);
      try {
        const { id } = db.prepare("SELECT id FROM users WHERE username = 'alice'").get() as { id: string };
        const insert = db.prepare("INSERT INTO oidc_model_instances (model, id, payload, account_id, uid, expires_at) VALUES ('Session', ?, '{}', ?, ?, ?)");
        for (const n of [1, 2]) insert.run(`cli-session-${n}`, id, `cli-uid-${n}`, Date.now() + 60_000);
      } finally {
        db.close();
      }
      const { username, password, ended_sessions } = JSON.parse(ok(await gatehouse(['user', 'set-password', 'alice', '--generate-password', '--json'])).stdout);
      assert.equal(username, 'alice');
      assert.match(password, /^[A-Za-z0-9_-]{24}$/);
      assert.equal(ended_sessions, 2);
      assert.ok(await verifyPassword(passwordHash('alice'), password));
      const typed = ok(await gatehouse(['user', 'set-password', 'ALICE'], { input: 'correct horse battery\n' }));
      assert.equal(typed.stdout.trim(), 'Password changed for ALICE; they had no session to end');
      assert.equal((await gatehouse(['user', 'set-password', 'nobody'], { input: 'long enough' })).code, 1);
    });

    test('user rename: the id stays; a name taken in any case exits 1', async () => {
      const bob = JSON.parse(ok(await gatehouse(['user', 'create', 'bob', '--generate-password', '--json'])).stdout);
      const taken = await gatehouse(['user', 'rename', 'bob', 'ALICE']);
      assert.equal(taken.code, 1);
      assert.match(failure(taken), /ALICE already exists/);
      assert.equal(ok(await gatehouse(['user', 'rename', 'BOB', 'Robert'])).stdout.trim(), 'Renamed BOB to Robert.');
      const db = new Sqlite(dbFile, { readonly: true });
      try {
        assert.deepEqual(db.prepare('SELECT username, username_key FROM users WHERE id = ?').get(bob.id), { username: 'Robert', username_key: 'robert' });
      } finally {
        db.close();
      }
    });

    test('user disable, then enable', async () => {
      assert.equal(JSON.parse(ok(await gatehouse(['user', 'disable', 'alice', '--json'])).stdout).disabled, true);
      assert.match(ok(await gatehouse(['user', 'list'])).stdout, /alice\s+Alice\s+alice@example\.com\s+user\s+disabled/);
      assert.equal(JSON.parse(ok(await gatehouse(['user', 'enable', 'alice', '--json'])).stdout).disabled, false);
    });

    test('user delete removes a person by username or id, with a pseudonymous audit entry; an unknown one exits 1', async () => {
      const dave = JSON.parse(ok(await gatehouse(['user', 'create', 'dave', '--generate-password', '--json'])).stdout);
      const erin = JSON.parse(ok(await gatehouse(['user', 'create', 'erin', '--generate-password', '--json'])).stdout);
      assert.deepEqual(JSON.parse(ok(await gatehouse(['user', 'delete', 'dave', '--json'])).stdout), { id: dave.id, deleted: true });
      assert.match(ok(await gatehouse(['user', 'delete', erin.id])).stdout, /Deleted/);
      const list = ok(await gatehouse(['user', 'list'])).stdout;
      assert.doesNotMatch(list, /\bdave\b|\berin\b/);
      const unknown = await gatehouse(['user', 'delete', 'dave']);
      assert.equal(unknown.code, 1);
      assert.match(failure(unknown), /no user named dave/);
      const db = new Sqlite(dbFile, { readonly: true });
      try {
        const entry = db.prepare("SELECT target_label, details FROM audit_events WHERE action = 'user.deleted' AND target_id = ?").get(dave.id) as {
          target_label: string | null;
          details: string;
        };
        assert.deepEqual([entry.target_label, JSON.parse(entry.details)], [null, { revokedArtifacts: 0 }]);
      } finally {
        db.close();
      }
    });

    test('user unlock lifts a lock and records it; a user who is not locked is left as is; an unknown one exits 1', async () => {
      const { id } = JSON.parse(ok(await gatehouse(['user', 'create', 'carol', '--generate-password', '--json'])).stdout);
      // Locked the way a guessing run locks it, in the counters the CLI reads: here the first failure from a new browser locks new browsers out.
      const url = `file:${dbFile}`;
      const defaults = throttleSettings();
      const throttle = createThrottle({
        db: database(url),
        settings: { ...defaults, newBrowsers: { ...defaults.newBrowsers, free: 1, lockAfter: 1, cap: 1 } },
        sweepEveryMs: 0,
      });
      try {
        const attempt = { account: { id }, username: 'carol', ip: '203.0.113.7' };
        await throttle.beforePasswordCheck(attempt);
        assert.equal((await throttle.passwordFailed(attempt)).locked, true);
        const unlocked = JSON.parse(ok(await gatehouse(['user', 'unlock', 'CAROL', '--json'])).stdout);
        assert.deepEqual([unlocked.id, unlocked.username, unlocked.locked_until, unlocked.was_locked], [id, 'carol', null, true]);
        assert.equal(await throttle.lockState(id), undefined, 'the lock is gone from the shared counters');
        assert.equal(ok(await gatehouse(['user', 'unlock', 'carol'])).stdout.trim(), 'carol was not locked.');
      } finally {
        await throttle.close();
        await closeDatabase(url);
      }
      const unknown = await gatehouse(['user', 'unlock', 'nobody']);
      assert.equal(unknown.code, 1);
      assert.match(failure(unknown), /no user named nobody/);
      const db = new Sqlite(dbFile, { readonly: true });
      try {
        const rows = db.prepare('SELECT action, user_agent FROM audit_events WHERE target_id = ? ORDER BY at, id').all(id);
        assert.deepEqual(
          rows,
          [
            { action: 'user.created', user_agent: 'gatehouse-cli' },
            { action: 'user.unlocked', user_agent: 'gatehouse-cli' },
          ],
          'only the unlock that lifted a lock',
        );
      } finally {
        db.close();
      }
    });

    test('user reset-2fa removes the authenticator and recovery codes once, recorded once; an unknown user exits 1', async () => {
      const { id } = JSON.parse(ok(await gatehouse(['user', 'create', 'dave', '--generate-password', '--json'])).stdout);
      const url = `file:${dbFile}`;
      const db = database(url);
      const throttle = createThrottle({ db, settings: throttleSettings(), sweepEveryMs: 0 });
      try {
        // Turned on as the person would, through the account's use cases.
        const ctx = { db, throttle, now: Date.now };
        const holder = { id, username: 'dave' };
        await beginTotpEnrolment(ctx, holder);
        const pending = await twoStepStatus(ctx, holder);
        const form = new FormData();
        form.append('code', totpCode(pending.status === 'pending' ? pending.secret : '', Date.now()));
        assert.equal((await confirmTotpEnrolment(ctx, holder, form)).status, 'codes');
        assert.equal(await hasSecondFactor(db, id), true);

        const reset = JSON.parse(ok(await gatehouse(['user', 'reset-2fa', 'DAVE', '--json'])).stdout);
        assert.deepEqual(
          [reset.id, reset.username, reset.second_factor, reset.removed],
          [id, 'dave', { totp: false, totp_since: null, passkeys: [], recovery_codes_left: 0 }, { totp: true, passkeys: 0, recovery_codes: 10 }],
        );
        assert.equal(await hasSecondFactor(db, id), false);
        assert.equal(ok(await gatehouse(['user', 'reset-2fa', 'dave'])).stdout.trim(), 'dave had no two-step verification.');
      } finally {
        await throttle.close();
        await closeDatabase(url);
      }
      const unknown = await gatehouse(['user', 'reset-2fa', 'nobody']);
      assert.equal(unknown.code, 1);
      assert.match(failure(unknown), /no user named nobody/);
      const sqlite = new Sqlite(dbFile, { readonly: true });
      try {
        const rows = sqlite.prepare("SELECT action, user_agent, details FROM audit_events WHERE target_id = ? AND action = 'factor.reset'").all(id);
        assert.deepEqual(
          rows,
          [{ action: 'factor.reset', user_agent: 'gatehouse-cli', details: JSON.stringify({ totp: true, passkeys: 0, recoveryCodes: 10 }) }],
          'only the reset that removed something',
        );
      } finally {
        sqlite.close();
      }
    });

    test('every change is in the audit log as done by the system through the CLI, without a password', async () => {
      const db = new Sqlite(dbFile, { readonly: true });
      try {
        const rows = db
          .prepare("SELECT action, actor_id, actor_username, user_agent, details FROM audit_events WHERE target_label = 'alice' ORDER BY at, id")
          .all() as Array<{ action: string; actor_id: null; actor_username: null; user_agent: string; details: string }>;
        assert.deepEqual(
          rows.map((r) => r.action),
          ['user.created', 'user.password_changed', 'session.ended', 'user.password_changed', 'user.disabled', 'user.enabled'],
        );
        assert.ok(rows.every((r) => r.actor_id === null && r.actor_username === null && r.user_agent === 'gatehouse-cli'));
        assert.deepEqual(JSON.parse(rows[1].details), { generated: true });
        assert.deepEqual(JSON.parse(rows[2].details), { count: 2, scope: 'all' });
        assert.doesNotMatch(JSON.stringify(rows), /correct horse/);
      } finally {
        db.close();
      }
    });
  });
});
