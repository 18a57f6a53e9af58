/**
 * What a server does once before it serves: apply migrations, create the first
 * admin on an empty database, and build the provider (which creates the signing
 * keys on first start). Called from instrumentation.ts and the CLI.
 */
import { env } from '../config/env.ts';
import { database, type Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { countUsers, createUser, UserError } from './users.ts';
import { generatePassword } from './passwords.ts';

export async function prepareDatabase(): Promise<Database> {
  const config = env();
  await migrate(config.DATABASE_URL);
  return database(config.DATABASE_URL);
}

/** Creates the first admin when there are no users; prints a generated password once. */
export async function ensureAdmin(db: Database, log: (line: string) => void = console.log): Promise<void> {
  if ((await countUsers(db)) > 0) return;
  const config = env();
  const password = config.ADMIN_PASSWORD ?? generatePassword();
  try {
    await createUser(db, { username: config.ADMIN_USERNAME, password, role: 'admin' });
  } catch (error) {
    if (error instanceof UserError && error.code === 'username_taken') return; // another instance won the race
    throw error;
  }
  if (config.ADMIN_PASSWORD) {
    log(`[gatehouse] created admin user "${config.ADMIN_USERNAME}" with the password from ADMIN_PASSWORD`);
  } else {
    log(`[gatehouse] created admin user "${config.ADMIN_USERNAME}" with generated password: ${password}`);
    log('[gatehouse] this password is shown only once; change it with: npm run gatehouse -- user set-password ' + config.ADMIN_USERNAME);
  }
}
