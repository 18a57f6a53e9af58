/**
 * Usernames are unique regardless of case since the migration *_username_key.
 * Accounts that already differed only in case before it all stayed, each
 * signing in with its exact spelling (any other spelling reaches the oldest);
 * this names them at every start until an admin renames them or disables the
 * extra ones. Called once per process before serving.
 */
import type { Database } from '../db/database.ts';
import { findUsernameClashes } from './repository.ts';

/** Logs one line per group of usernames that differ only in case; returns the groups. */
export async function reportUsernameClashes(db: Database, log: (line: string) => void): Promise<string[][]> {
  const groups = await findUsernameClashes(db);
  for (const [first, ...others] of groups) {
    const quoted = (names: string[]) => names.map((name) => JSON.stringify(name)).join(', ');
    log(
      `usernames that differ only in case: ${quoted([first, ...others])}. ` +
        `Sign-in matches usernames without case, so ${quoted(others)} sign in only with that exact spelling and any other reaches ${JSON.stringify(first)}; ` +
        'rename the extra accounts (npm run gatehouse -- user rename <username> <new-username>) or disable them, so each name is one account.',
    );
  }
  return groups;
}
