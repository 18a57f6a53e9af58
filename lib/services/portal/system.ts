/**
 * What /admin/system shows: how this server is set up, in the words an
 * operator checks against their configuration. Never a secret, URL
 * credential or key: the database and Redis are named by kind only.
 */
import 'server-only';
import { serverContext } from '../../context.ts';
import { canMailLinks } from '../password-reset.ts';

export interface SystemView {
  issuer: string;
  database: 'SQLite' | 'PostgreSQL';
  throttleCounters: 'the database' | 'Redis';
  mail: { destination: string; passwordReset: boolean };
  secondFactorRequired: 'admins' | 'everyone' | 'off';
}

export function systemView(): SystemView {
  const ctx = serverContext();
  const { config } = ctx;
  return {
    issuer: config.ISSUER,
    database: config.DATABASE_URL.startsWith('file:') ? 'SQLite' : 'PostgreSQL',
    throttleCounters: config.REDIS_URL ? 'Redis' : 'the database',
    mail: { destination: ctx.mailer.destination, passwordReset: canMailLinks(ctx) },
    secondFactorRequired: config.SECOND_FACTOR_REQUIRED,
  };
}
