/**
 * The username of an account created just in time: the upstream's (its `preferred_username`, GitHub's
 * `login`), else the address's local part, cut to what usernames allow (lib/users/manage.ts
 * usernameSchema). Taken already (the name belongs to someone else here, never merged): a
 * random suffix, so a person upstream cannot pick the name of an account here to become it.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { findUserByUsername } from '../users/repository.ts';

const allowed = (text: string) =>
  text
    .replace(/[^A-Za-z0-9._@-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 48);

export async function justInTimeUsername(db: Database, profile: { username: string | null; email: string | null; subject: string }): Promise<string> {
  const wanted = allowed(profile.username ?? '') || allowed(profile.email?.split('@')[0] ?? '') || 'user';
  if (!(await findUserByUsername(db, wanted))) return wanted;
  for (let attempt = 0; attempt < 5; attempt++) {
    const candidate = `${wanted}-${randomBytes(3).toString('hex')}`;
    if (!(await findUserByUsername(db, candidate))) return candidate;
  }
  return `user-${randomBytes(8).toString('hex')}`;
}
