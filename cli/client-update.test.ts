/**
 * `gatehouse client update`, black-box, on every supported database (each its
 * own: SQLite always, PostgreSQL when TEST_DATABASE_URL is set): what changes,
 * what stays, what is refused, what the audit log says.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findClientMetadata } from '../lib/clients/repository.ts';
import { testDatabases } from '../lib/db/testing.ts';
import { clientSecretMatches } from '../lib/oidc/client-secret.ts';
import { auditEventsFor } from '../lib/audit/log.ts';
import { registerClient } from '../lib/clients/manage.ts';
import { PORTAL_CLIENT_ID } from '../lib/clients/portal-client.ts';
import { cliRunner, failure, ok } from './testing.ts';

describe('gatehouse client update', { concurrency: true }, () => {
  for (const storage of testDatabases('cli-update')) {
    describe(`client update on ${storage.name}`, { concurrency: 1, skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
      const gatehouse = cliRunner(storage.url ?? '');
      const run = (args: string[]) => gatehouse(['client', 'update', ...args]);
      let id: string;

      test('a given option changes; the others, the type and the secret stay', async () => {
        // Also migrates this database, before anything else touches it.
        const created = ok(
          await gatehouse(
            [
              'client',
              'create',
              '--name',
              'Payroll',
              '--redirect-uri',
              'https://payroll.example/cb',
              '--post-logout-redirect-uri',
              'https://payroll.example/',
              '--scopes',
              'openid profile',
              '--id-token-alg',
              'RS256',
              '--json',
            ],
            { databaseUrl: storage.url },
          ),
        );
        const { client_secret: secret, updated_at: _created, ...client } = JSON.parse(created.stdout);
        id = client.client_id;
        assert.equal(client.require_second_factor, false);

        const text = ok(await run([id, '--require-second-factor'])).stdout.trim();
        assert.equal(text, `Updated client "Payroll" (${id}): require_second_factor`);
        const renamed = JSON.parse(ok(await run([id, '--name', 'Payroll 2', '--json'])).stdout);
        const { updated_at: _renamed, ...now } = renamed;
        assert.deepEqual(now, { ...client, client_name: 'Payroll 2', require_second_factor: true });
        const db = await storage.open();
        assert.ok(clientSecretMatches((await findClientMetadata(db, id))?.client_secret, secret), 'the secret still works');
      });

      test('--no- forms switch off and empty; repeatable options replace their lists', async () => {
        const updated = JSON.parse(
          ok(
            await run([
              id,
              '--no-require-second-factor',
              '--redirect-uri',
              'https://payroll.example/a',
              '--redirect-uri',
              'http://localhost:8080/b',
              '--no-post-logout-redirect-uri',
              '--scope',
              'openid',
              '--scope',
              'email',
              '--first-party',
              '--json',
            ]),
          ).stdout,
        );
        assert.deepEqual(
          [updated.require_second_factor, updated.redirect_uris, updated.post_logout_redirect_uris, updated.scope, updated.first_party],
          [false, ['https://payroll.example/a', 'http://localhost:8080/b'], [], 'openid email', true],
        );
        assert.deepEqual([updated.client_name, updated.id_token_signed_response_alg, updated.client_type], ['Payroll 2', 'RS256', 'confidential']);
        assert.equal(ok(await run([id, '--first-party'])).stdout.trim(), `Client "Payroll 2" (${id}) already had these settings.`);
      });

      test('bad input exits non-zero with one clear line and changes nothing', async () => {
        const list = async () => ok(await gatehouse(['client', 'list', '--json'], { databaseUrl: storage.url })).stdout;
        const before = await list();
        const refusals: Array<[string[], number, RegExp]> = [
          [['nope', '--require-second-factor'], 1, /no client with id nope/],
          [[id], 2, /nothing to change; give at least one option/],
          [[], 2, /missing <client_id>/],
          [[id, '--redirect-uri', 'http://example.com/cb'], 2, /--redirect-uri: http:\/\/example\.com\/cb must use https/],
          [[id, '--logo-uri', 'http://logo.example/a.png'], 2, /--logo-uri: The logo URI must be an https URL/],
          [[id, '--scope', 'everything'], 2, /--scope: /],
          [[id, '--name', ' '], 2, /--name: Name is required/],
          [[id, '--require-second-factor', '--no-require-second-factor'], 2, /choose one of --require-second-factor and --no-require-second-factor/],
          [[id, '--no-redirect-uri'], 2, /--redirect-uri: The authorization_code grant needs at least one redirect URI/],
          [[id, '--auth-method', 'none'], 2, /--auth-method: A confidential client needs client_secret_basic or client_secret_post/],
          [[id, '--public'], 2, /Unknown option '--public'/],
        ];
        for (const [args, code, message] of refusals) {
          const refused = await run(args);
          assert.equal(refused.code, code, `${args.join(' ')}: ${refused.stderr}`);
          assert.match(failure(refused), message);
        }
        assert.equal(await list(), before);
      });

      test("the admin portal's own client is refused (exit 1), as in the portal and the admin API", async () => {
        await registerClient(
          await storage.open(),
          { name: 'Gatehouse admin portal', redirectUris: ['https://gatehouse.example/cb'] },
          { id: PORTAL_CLIENT_ID },
        );
        const refused = await run([PORTAL_CLIENT_ID, '--require-second-factor']);
        assert.equal(refused.code, 1);
        assert.match(failure(refused), /Gatehouse manages this client itself/);
      });

      test('each update that changed something is in the audit log, by the CLI, naming the fields', async () => {
        const events = await auditEventsFor(await storage.open(), { targetType: 'client', targetId: id });
        assert.deepEqual(
          events.reverse().map((e) => [e.action, e.actor, e.userAgent, e.action === 'client.updated' ? e.details : undefined]),
          [
            ['client.created', null, 'gatehouse-cli', undefined],
            ['client.updated', null, 'gatehouse-cli', { changed: ['requireSecondFactor'] }],
            ['client.updated', null, 'gatehouse-cli', { changed: ['name'] }],
            ['client.updated', null, 'gatehouse-cli', { changed: ['redirectUris', 'postLogoutRedirectUris', 'scope', 'firstParty', 'requireSecondFactor'] }],
          ],
        );
      });
    });
  }
});
