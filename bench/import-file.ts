/**
 * Writes an import file of N people (JSON lines) for timing `gatehouse user import`: each with an
 * email, a name, a group and a password hash. Two hashes are made once (bcrypt cost 10 and
 * PBKDF2-SHA256 in Keycloak's layout) and reused on alternate lines: an import stores hashes, never
 * verifies them, so their cost is not what is measured, and the file is written in seconds.
 *
 *   node --import tsx bench/import-file.ts 100000 /tmp/people.jsonl [group]
 */
import { createWriteStream } from 'node:fs';
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';

const [count = '100000', file = '/tmp/people.jsonl', group] = process.argv.slice(2);
const salt = randomBytes(16);
const bcryptHash = bcrypt.hashSync('imported password', 10);
const pbkdf2 = {
  password_hash: pbkdf2Sync('imported password', salt, 27500, 32, 'sha256').toString('base64'),
  password_salt: salt.toString('base64'),
  password_iterations: 27500,
  password_algorithm: 'pbkdf2-sha256',
};
const out = createWriteStream(file);
for (let i = 0; i < Number(count); i++) {
  const line = JSON.stringify({
    external_id: `bench-${i}`,
    username: `person${i}`,
    email: `person${i}@example.com`,
    email_verified: i % 2 === 0,
    name: `Person ${i}`,
    ...(group ? { groups: [group] } : {}),
    ...(i % 2 === 0 ? { password_hash: bcryptHash } : pbkdf2),
  });
  if (!out.write(`${line}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
}
out.end();
console.log(`wrote ${count} people to ${file}`);
