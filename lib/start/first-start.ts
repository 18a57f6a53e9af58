/**
 * What a server does to its database before it serves: check its keys, apply
 * migrations, seal the stored secrets, create the first admin on an empty
 * database, register the admin portal's client. Steps of the start-up
 * (./steps.ts); the CLI prepares its database with prepareDatabase too.
 */
import { env, type Env } from '../config/env.ts';
import type { Log } from '../ops/log.ts';
import type { Database } from '../db/database.ts';
import { checkSecretsKeys } from '../db/start-checks.ts';
import { warnAboutModes } from '../db/file-modes.ts';
import { migrate } from '../db/migrate.ts';
import { runDataMigrations } from '../db/data-migrations.ts';
import { resealSecrets } from '../db/secrets.ts';
import { findClientMetadata, setClientEnabled, setClientSecretHash } from '../clients/repository.ts';
import { hashClientSecret } from '../oidc/client-secret.ts';
import { findClient, newClientSchema, registerClient, updateClient } from '../clients/manage.ts';
import { hasUsers } from '../users/repository.ts';
import { Conflict } from '../platform/errors.ts';
import { createUser } from '../users/manage.ts';
import { generatePassword } from '../platform/passwords.ts';
import { PORTAL_CLIENT_ID, portalClientSecret, portalRegistration } from '../clients/portal-client.ts';

/**
 * Before the first migration, the settings the start needs (lib/db/start-checks.ts:
 * the secrets keys): a refused start changes nothing. Then the schema
 * migrations, before anything reads through `db` (on SQLite its connection
 * opens on first use, and the schema engine needs the file to itself), then
 * the data migrations (lib/db/data-migrations.ts). `log` (the server's) gets a
 * line for each migration applied, by name.
 */
export async function prepareDatabase(db: Database, { log, secretsKey = env().SECRETS_KEY }: { log?: Log; secretsKey?: Buffer[] } = {}): Promise<Database> {
  // The first connection to an existing SQLite file narrows its modes: said in this database's log.
  await checkSecretsKeys(db.url, secretsKey, { onOpenModes: warnAboutModes(() => log ?? db.log) });
  const started = performance.now();
  const { applied } = await migrate(db.url);
  for (const name of applied) log?.info({ migration: name }, `applied migration ${name}`);
  const data = await runDataMigrations(db);
  for (const name of data) log?.info({ data_migration: name }, `applied data migration ${name}`);
  if (applied.length + data.length > 0) {
    const ms = Math.round(performance.now() - started);
    log?.info(
      { migrations: applied, data_migrations: data, ms },
      `database upgraded: ${applied.length} migration(s) and ${data.length} data migration(s) in ${ms} ms`,
    );
  }
  return db;
}

/**
 * Before anything reads a secret: every stored secret and private key is
 * brought under the current key (encrypted in place on the first start of a
 * database that held them in clear; re-encrypted after a new first key in
 * SECRETS_KEY), and the log says how many per table, so the operator knows
 * when the old key may go: once every table is under the new one. A value no key
 * opens stops the start. The server's start only: the CLI touches no secret.
 */
export async function prepareSecrets(db: Database): Promise<void> {
  for (const [table, count] of Object.entries(await resealSecrets(db))) {
    if (count > 0) db.log.info({ table, count }, `encrypted ${count} stored secret${count === 1 ? '' : 's'} in ${table} under the current secrets key`);
  }
}

/**
 * Creates the first admin (ADMIN_USERNAME, ADMIN_PASSWORD) when there are no
 * users. A generated password is logged once, in one line, for the operator
 * starting the server: the only password Gatehouse ever logs, on a database
 * with no users yet.
 */
export async function ensureAdmin(db: Database, config: Pick<Env, 'ADMIN_USERNAME' | 'ADMIN_PASSWORD'>, log: (line: string) => void): Promise<void> {
  if (await hasUsers(db)) return;
  const password = config.ADMIN_PASSWORD ?? generatePassword();
  try {
    await createUser(db, { username: config.ADMIN_USERNAME, password, role: 'owner' });
  } catch (error) {
    if (error instanceof Conflict && error.field === 'username') return; // another instance won the race
    throw error;
  }
  if (config.ADMIN_PASSWORD) {
    log(`created admin user "${config.ADMIN_USERNAME}" with the password from ADMIN_PASSWORD`);
  } else {
    log(
      `created admin user "${config.ADMIN_USERNAME}" with generated password: ${password} ` +
        `(shown only once; change it with: npm run gatehouse -- user set-password ${config.ADMIN_USERNAME})`,
    );
  }
}

/**
 * Registers the admin portal as a client of this issuer on first start, and on
 * every later start puts its registration back the way the portal needs it:
 * redirect URIs for the current ISSUER, enabled, and the secret every instance
 * reads from server_secrets (stored, like every client secret, only hashed).
 */
export async function ensurePortalClient(
  db: Database,
  { issuer, product, log }: { issuer: string; product?: string; log: (line: string) => void },
): Promise<void> {
  const registration = portalRegistration(issuer, product);
  if (!newClientSchema.safeParse(registration).success) {
    // Redirect URIs must be https, or http on loopback (RFC 9700 §2.1): the portal follows the same rule.
    log(`the admin portal needs an https ISSUER (http only on localhost); sign-in at ${issuer}/admin is off`);
    return;
  }
  const secret = await portalClientSecret(db);
  const hash = hashClientSecret(secret);
  // The usual start: already registered as wanted (read on the raw driver, as the provider reads it).
  if (registeredAsWanted(await findClientMetadata(db, PORTAL_CLIENT_ID), newClientSchema.parse(registration), hash)) return;
  const existing = await findClient(db, PORTAL_CLIENT_ID);
  if (!existing) {
    try {
      await registerClient(db, registration, { id: PORTAL_CLIENT_ID, clientSecret: secret });
    } catch (error) {
      if (!(await findClient(db, PORTAL_CLIENT_ID))) throw error; // else another instance registered it first
    }
    return;
  }
  // Something differs: put all of it back (updateClient audits only the fields it changed).
  await updateClient(db, PORTAL_CLIENT_ID, registration);
  if (!existing.enabled) await setClientEnabled(db, PORTAL_CLIENT_ID, true);
  await setClientSecretHash(db, PORTAL_CLIENT_ID, hash);
}

/** The enabled client's metadata (undefined when missing or disabled) says exactly what the portal needs. */
function registeredAsWanted(
  metadata: Awaited<ReturnType<typeof findClientMetadata>>,
  wanted: ReturnType<typeof newClientSchema.parse>,
  secretHash: string,
): boolean {
  return (
    metadata !== undefined &&
    metadata.client_name === wanted.name &&
    sameList(metadata.redirect_uris, wanted.redirectUris) &&
    sameList(metadata.post_logout_redirect_uris, wanted.postLogoutRedirectUris) &&
    sameList(metadata.grant_types, wanted.grantTypes) &&
    sameList(metadata.scope.split(' '), wanted.scopes) &&
    metadata.token_endpoint_auth_method === wanted.tokenEndpointAuthMethod &&
    metadata.id_token_signed_response_alg === wanted.idTokenSignedResponseAlg &&
    metadata.first_party === true &&
    metadata.resource_server === false &&
    metadata.admin_api === false &&
    metadata.client_secret === secretHash
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}
