/**
 * `gatehouse keys ...`: list, rotate and retire the token signing keys
 * (lib/keys/signing-keys.ts). Never prints key material: the records these
 * commands read do not carry it. Running servers follow a change within
 * ROTATION_POLL_MS.
 */
import { existsSync } from 'node:fs';
import { env } from '../../lib/config/env.ts';
import { keyFilePath, keyId, readKeyFile } from '../../lib/db/keyring.ts';
import { ID_TOKEN_SIGNING_ALGS, type IdTokenSigningAlg } from '../../lib/oidc/algorithms.ts';
import { BY_CLI } from '../../lib/audit/log.ts';
import { InvalidRequest } from '../../lib/platform/errors.ts';
import { listSigningKeys, plannedRotations, retireSigningKey, ROTATION_POLL_MS, rotateSigningKeys, rotationSettings } from '../../lib/keys/signing-keys.ts';
import { signingKeyToWire } from '../../lib/keys/wire.ts';
import { parseCommand, positionals, type Command } from '../args.ts';
import { table } from '../output.ts';

const followNote = `Running servers serve the change within ${ROTATION_POLL_MS / 1000} seconds.`;

const list: Command = {
  summary: 'list the signing keys: kid, algorithm, state and dates (never key material)',
  help: `Usage: gatehouse keys list [--json]

States: next (published in the JWKS, not signing yet), current (signs that
algorithm's tokens), previous (published until every token it signed has
expired). SIGNS FROM: when a next key starts signing, when the others started.
Then, for each algorithm, when the next automatic rotation publishes a new key
and when that key signs (KEY_ROTATION_DAYS, KEY_PUBLISH_AHEAD_HOURS); in JSON,
the current key's next_rotation.
`,
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('keys list', argv, {});
    positionals('keys list', rest, []);
    const settings = rotationSettings(env());
    const stored = await listSigningKeys(await ctx.db());
    const planned = plannedRotations(stored, settings, Date.now());
    const iso = (ms: number) => new Date(ms).toISOString();
    // On the key that signs: when it hands over (null when nothing is planned).
    const keys = stored.map((key) => {
      const rotation = planned.find((p) => p.kid === key.kid);
      return { ...signingKeyToWire(key), next_rotation: rotation ? { publish_at: iso(rotation.publishAt), signs_from: iso(rotation.signsAt) } : null };
    });
    const rows = keys.map((k) => [k.kid, k.alg, k.state, k.created_at, k.activates_at ?? '', k.retire_after ?? '']);
    const empty = 'No signing keys yet (the server creates them at its first start).';
    const next = planned.map((p) => `${p.alg}: the next key is published from ${iso(p.publishAt)} and signs from ${iso(p.signsAt)}.`);
    if (stored.length > 0 && settings.rotationDays === 0) next.push('Automatic rotation is off (KEY_ROTATION_DAYS=0): rotate with `gatehouse keys rotate`.');
    return {
      json: keys,
      text: [
        table(['KID', 'ALG', 'STATE', 'CREATED', 'SIGNS FROM', 'RETIRE AFTER'], rows, empty),
        ...(next.length ? ['', 'Next rotation:', ...next] : []),
      ].join('\n'),
    };
  },
};

const rotate: Command = {
  summary: 'publish a new signing key, and make it sign once relying parties have had time to see it',
  help: `Usage: gatehouse keys rotate [--alg ES256|RS256] [--now] [--json]

  --alg A   only this algorithm's keys (default: both)
  --now     make the new key sign at once: for a compromised key only

For each algorithm: when its next key has been published for
KEY_PUBLISH_AHEAD_HOURS, it signs from now on; otherwise a next key is
published now (if there is none) and signs once that time has passed (run
rotate again then, or let the server's check do it). The key that stops
signing stays published until every token it signed has expired, then it is
retired. Without waiting (--now), relying parties that cached the JWKS refuse
the new key's tokens until they fetch it again; retire the old key after
(gatehouse keys retire <kid>) if it was compromised. ${followNote}
`,
  fields: { alg: '--alg' },
  async run(argv, ctx) {
    const { values, positionals: rest } = parseCommand('keys rotate', argv, { alg: { type: 'string' }, now: { type: 'boolean' } });
    positionals('keys rotate', rest, []);
    if (values.alg !== undefined && !(ID_TOKEN_SIGNING_ALGS as readonly string[]).includes(values.alg)) {
      throw new InvalidRequest(`keys rotate: --alg must be one of ${ID_TOKEN_SIGNING_ALGS.join(', ')}`);
    }
    const algs = values.alg ? [values.alg as IdTokenSigningAlg] : ID_TOKEN_SIGNING_ALGS;
    const immediately = values.now === true;
    const outcomes = await rotateSigningKeys(await ctx.db(), rotationSettings(env()), { algs, immediately, now: Date.now(), by: BY_CLI });
    const lines = outcomes.map((o) =>
      o.outcome === 'rotated'
        ? `${o.alg}: ${o.kid} signs from now on; the key before it stays published until its tokens have expired.`
        : `${o.alg}: ${o.kid} is published and signs from ${new Date(o.activatesAt).toISOString()}.`,
    );
    return {
      json: outcomes.map((o) => ({ alg: o.alg, outcome: o.outcome, kid: o.kid, activates_at: new Date(o.activatesAt).toISOString() })),
      text: [...lines, followNote].join('\n'),
      notice: immediately
        ? 'Warning: the new key signs without having been published ahead; relying parties that cached the JWKS refuse its tokens until they fetch it again.'
        : undefined,
    };
  },
};

const retire: Command = {
  summary: 'remove a key that does not sign from the JWKS, and delete it',
  help: `Usage: gatehouse keys retire <kid> [--json]

A next key, or a previous one: tokens a previous key signed stop verifying,
even those not yet expired (which is the point when it was compromised). The
current key cannot be retired: rotate first. Exits 1 for an unknown kid or
the current key. ${followNote}
`,
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('keys retire', argv, {});
    const [kid] = positionals('keys retire', rest, ['kid']);
    const { key, early } = await retireSigningKey(await ctx.db(), kid, { now: Date.now(), by: BY_CLI });
    return {
      json: { ...signingKeyToWire(key), retired: true, early },
      text: `Retired ${key.kid} (${key.alg}, ${key.state}). ${followNote}`,
      notice: early ? 'Tokens it signed that have not expired yet no longer verify.' : undefined,
    };
  },
};

const secretsId: Command = {
  summary: 'print the ids of the secrets keys (SECRETS_KEY, the key file, or the key files given), to match the one a refusal names',
  help: `Usage: gatehouse keys secrets-id [<key file>...] [--json]

The id of each key that encrypts the secrets stored in the database: each of
SECRETS_KEY's keys, the key file beside a SQLite DATABASE_URL (<db>.key) when
it exists, and each key file given (a backup's, say). A start that cannot open
what the database holds names the key id it needs: the key whose id matches is
the one to restore or to add. An id is a digest of the key, never the key; the
database is not opened.
`,
  async run(argv) {
    const { positionals: files } = parseCommand('keys secrets-id', argv, {});
    const config = env();
    const found: { source: string; id: string }[] = config.SECRETS_KEY.map((key, i) => ({
      source: `SECRETS_KEY #${i + 1}${i === 0 ? ' (encrypts)' : ''}`,
      id: keyId(key),
    }));
    const beside = config.DATABASE_URL.startsWith('file:') ? keyFilePath(config.DATABASE_URL.slice('file:'.length)) : undefined;
    for (const file of [...(beside && existsSync(beside) ? [beside] : []), ...files]) {
      let key: Buffer | undefined;
      try {
        key = readKeyFile(file);
      } catch (error) {
        throw new InvalidRequest(`keys secrets-id: ${(error as Error).message}`);
      }
      if (!key) throw new InvalidRequest(`keys secrets-id: no file ${file}`);
      found.push({ source: file, id: keyId(key) });
    }
    return {
      json: found,
      text: table(
        ['ID', 'KEY'],
        found.map((k) => [k.id, k.source]),
        'No secrets key: SECRETS_KEY is unset and there is no key file (give one as an argument).',
      ),
    };
  },
};

export const keyCommands: Record<string, Command> = { list, rotate, retire, 'secrets-id': secretsId };
