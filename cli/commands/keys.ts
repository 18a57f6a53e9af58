/**
 * `gatehouse keys ...`: list, rotate and retire the token signing keys
 * (lib/services/signing-keys.ts). Never prints key material: the records these
 * commands read do not carry it. Running servers follow a change within
 * ROTATION_POLL_MS.
 */
import { env } from '../../lib/config/env.ts';
import { ID_TOKEN_SIGNING_ALGS, type IdTokenSigningAlg } from '../../lib/oidc/algorithms.ts';
import { BY_CLI } from '../../lib/services/audit.ts';
import { InvalidRequest } from '../../lib/services/errors.ts';
import { listSigningKeys, retireSigningKey, ROTATION_POLL_MS, rotateSigningKeys, rotationSettings } from '../../lib/services/signing-keys.ts';
import { signingKeyToWire } from '../../lib/services/wire.ts';
import { parseCommand, positionals, type Command } from '../args.ts';
import { table } from '../output.ts';

const followNote = `Running servers serve the change within ${ROTATION_POLL_MS / 1000} seconds.`;

const list: Command = {
  summary: 'list the signing keys: kid, algorithm, state and dates (never key material)',
  help: `Usage: gatehouse keys list [--json]

States: next (published in the JWKS, not signing yet), current (signs that
algorithm's tokens), previous (published until every token it signed has
expired). SIGNS FROM: when a next key starts signing, when the others started.
`,
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('keys list', argv, {});
    positionals('keys list', rest, []);
    const keys = (await listSigningKeys(await ctx.db())).map(signingKeyToWire);
    const rows = keys.map((k) => [k.kid, k.alg, k.state, k.created_at, k.activates_at ?? '', k.retire_after ?? '']);
    return {
      json: keys,
      text: table(['KID', 'ALG', 'STATE', 'CREATED', 'SIGNS FROM', 'RETIRE AFTER'], rows, 'No signing keys yet (the server creates them at its first start).'),
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
    const outcomes = await rotateSigningKeys(await ctx.db(), rotationSettings(env()), { algs, immediately, by: BY_CLI });
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
    const { key, early } = await retireSigningKey(await ctx.db(), kid, { by: BY_CLI });
    return {
      json: { ...signingKeyToWire(key), retired: true, early },
      text: `Retired ${key.kid} (${key.alg}, ${key.state}). ${followNote}`,
      notice: early ? 'Tokens it signed that have not expired yet no longer verify.' : undefined,
    };
  },
};

export const keyCommands: Record<string, Command> = { list, rotate, retire };
