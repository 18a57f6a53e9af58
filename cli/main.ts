/**
 * The scriptable admin CLI's commands, run on given streams (`cli/gatehouse.ts` gives it the
 * process's; the CLI's tests give it their own and run it in their process).
 *
 * Output is for people by default and JSON with --json. Exit status: 0 on
 * success, 1 on a runtime failure (not found, already taken), 2 on bad
 * arguments or input; every failure is one line on stderr. The database is
 * opened (and migrated) only once a command's input is valid, and closed at
 * the end so the process exits as soon as the work is done.
 */
import { env } from '../lib/config/env.ts';
import type { Database } from '../lib/db/database.ts';
import type { Mailer } from '../lib/mail/mailer.ts';
import type { Log } from '../lib/ops/log.ts';
import { InvalidRequest, ServiceError } from '../lib/platform/errors.ts';
import type { Command, Context } from './args.ts';
import { clientCommands } from './commands/clients.ts';
import { connectionCommands } from './commands/connections.ts';
import { webhookCommands } from './commands/webhooks.ts';
import { keyCommands } from './commands/keys.ts';
import { apiCommands, groupCommands, roleCommands } from './commands/authorization.ts';
import { auditCommands } from './commands/audit.ts';
import { attributeCommands, claimCommands } from './commands/claims.ts';
import { registrationCommands } from './commands/registration.ts';
import { scimCommands } from './commands/scim.ts';
import { userCommands } from './commands/users.ts';
import { cliMailer, issuerNotice, type MailedLink } from './mail.ts';
import { describeFlagIssues, table } from './output.ts';

const groups: Record<string, { summary: string; commands: Record<string, Command> }> = {
  client: { summary: 'OAuth clients', commands: clientCommands },
  user: { summary: 'people who sign in', commands: userCommands },
  keys: { summary: 'token signing keys', commands: keyCommands },
  registration: { summary: 'dynamic client registration: initial access tokens, approvals', commands: registrationCommands },
  scim: { summary: 'SCIM 2.0 provisioning: the tokens of provisioning clients', commands: scimCommands },
  connection: { summary: 'identity providers people may sign in with', commands: connectionCommands },
  webhook: { summary: 'endpoints that get signed events, and their deliveries', commands: webhookCommands },
  api: { summary: 'APIs (resource servers) and their permissions', commands: apiCommands },
  group: { summary: 'groups of people', commands: groupCommands },
  role: { summary: 'roles: sets of API permissions', commands: roleCommands },
  attribute: { summary: "custom user attributes and people's values of them", commands: attributeCommands },
  claim: { summary: "clients' claim mappings: attributes under claim names", commands: claimCommands },
  audit: { summary: 'the audit log: verify its hash chain, export it', commands: auditCommands },
};

function usage(): string {
  const rows = Object.entries(groups).flatMap(([group, { commands }]) => Object.entries(commands).map(([name, c]) => [`  ${group} ${name}`, c.summary]));
  return `Usage: npm run gatehouse -- <command> [options]

${table(['Commands:', ''], rows, '')}

Every command takes --help, and --json for machine-readable output (run
npm with -s, \`npm run -s gatehouse -- ...\`, so its banner stays off stdout).
Exit status: 0 success, 1 runtime failure (not found, taken), 2 bad usage.
The database is DATABASE_URL (default file:./data/gatehouse.db).`;
}

function groupUsage(group: string): string {
  const rows = Object.entries(groups[group].commands).map(([name, c]) => [`  ${name}`, c.summary]);
  return `Usage: npm run gatehouse -- ${group} <command> [options]\n\n${table(['Commands:', ''], rows, '')}\n\nRun with <command> --help for its options.`;
}

/** Flags before a `--` terminator; after it everything is a positional. */
const flagsOf = (argv: string[]) => (argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv);
const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';

/** Where a run reads its input and writes its answer and its failures. */
export interface CliStreams {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown };
}

/** Runs one command line; resolves with its exit status (0, 1 or 2). */
export async function runGatehouse(argv: string[], io: CliStreams): Promise<number> {
  const print = (text: string, code: number) => printTo(io, text, code);
  const fail = (error: unknown, command?: Command) => failTo(io, error, command);
  const [group, name, ...rest] = argv;
  if (isHelp(group)) return print(usage(), 0);
  if (group === undefined) return fail(new InvalidRequest('missing command (see --help)'));
  if (!Object.hasOwn(groups, group)) return fail(new InvalidRequest(`unknown command '${group}' (see --help)`));
  if (isHelp(name)) return print(groupUsage(group), 0);
  if (name === undefined) return fail(new InvalidRequest(`missing ${group} command (see gatehouse ${group} --help)`));
  const command = Object.hasOwn(groups[group].commands, name) ? groups[group].commands[name] : undefined;
  if (!command) return fail(new InvalidRequest(`unknown command '${group} ${name}' (see gatehouse ${group} --help)`));
  if (flagsOf(rest).some(isHelp)) return print(command.help.trimEnd(), 0);

  let db: Database | undefined;
  let mailer: Mailer | undefined;
  let log: Log | undefined;
  const mailed: MailedLink[] = [];
  const ctx: Context = {
    stdin: io.stdin,
    stdout: io.stdout,
    progress: io.stdout.isTTY ? (text) => io.stdout.write(`\r\x1b[K${text}`) : undefined,
    async db() {
      if (!db) {
        // Loaded on demand: --help and usage errors open no database.
        const [{ openDatabase }, { prepareDatabase }, { createLogger, prettyStream }] = await Promise.all([
          import('../lib/db/database.ts'),
          import('../lib/start/first-start.ts'),
          import('../lib/ops/log.ts'),
        ]);
        // What the database says while opening (file modes narrowed, a failed checkpoint) goes to stderr too.
        log ??= createLogger({ level: env().LOG_LEVEL, destination: prettyStream(io.stderr) });
        // With the server's REDIS_URL: deleting a client or disabling a user reaches the tokens held in Redis.
        // A handle of its own: closed at the end of the command line, whatever else the process holds open.
        db = await prepareDatabase(openDatabase(env().DATABASE_URL, { redisUrl: env().REDIS_URL, log }));
      }
      return db;
    },
    async mailing() {
      const [{ createMailer }, { createLogger, prettyStream }] = await Promise.all([import('../lib/mail/mailer.ts'), import('../lib/ops/log.ts')]);
      // Human-readable, on stderr: the CLI's stdout is its answer (--json).
      log ??= createLogger({ level: env().LOG_LEVEL, destination: prettyStream(io.stderr) });
      mailer ??= cliMailer(createMailer(env(), { log }), mailed);
      return { db: await ctx.db(), now: Date.now, mailer, log, config: env(), mailed };
    },
  };
  try {
    const result = await command.run(rest, ctx);
    const json = flagsOf(rest).includes('--json');
    if (!result.streamed) print(json ? JSON.stringify(result.json, null, 2) : result.text, 0);
    for (const notice of [result.notice, issuerNotice(mailed, process.env.ISSUER, env().ISSUER)]) if (notice) io.stderr.write(`${notice}\n`);
    return result.failed ? 1 : 0;
  } catch (error) {
    return fail(error, command);
  } finally {
    mailer?.close();
    if (db) await (await import('../lib/db/database.ts')).closeHandle(db);
  }
}

function printTo(io: CliStreams, text: string, code: number): number {
  io.stdout.write(`${text}\n`);
  return code;
}

/**
 * One line on stderr, and the exit status the error stands for: 2 for bad
 * usage or input (invalid_request), 1 for any other failure.
 */
function failTo(io: CliStreams, error: unknown, command?: Command): number {
  let message: string;
  if (error instanceof InvalidRequest && error.validation) {
    message = `invalid input: ${describeFlagIssues(error.validation, command?.fields)}`;
  } else if ((error instanceof ServiceError && error.shown) || (error instanceof Error && error.name === 'StartRefused')) {
    // StartRefused: the database's keys do not fit (lib/db/start-checks.ts); its message says what to restore or set.
    message = error.message;
  } else {
    message = `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  }
  io.stderr.write(`gatehouse: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  return error instanceof InvalidRequest ? 2 : 1;
}
