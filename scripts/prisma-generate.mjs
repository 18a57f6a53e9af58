// Generates both Prisma clients (SQLite and PostgreSQL) without Prisma's native
// schema-engine download: `prisma generate` needs no engine, but the CLI insists
// that one exists, so point it at /bin/true.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1' };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) {
  env.PRISMA_SCHEMA_ENGINE_BINARY = existsSync('/bin/true') ? '/bin/true' : process.execPath;
}
for (const schema of ['prisma/sqlite', 'prisma/postgresql']) {
  execFileSync(process.execPath, ['node_modules/prisma/build/index.js', 'generate', '--schema', schema], { stdio: 'inherit', env });
}
