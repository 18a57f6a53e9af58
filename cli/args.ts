/**
 * What every command shares: the command shape, argument parsing with
 * node:util's parseArgs (strict, so a misspelt flag is an error rather than
 * silently ignored), and reading a password from stdin.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Database } from '../lib/db/database.ts';
import type { Mailer } from '../lib/mail/mailer.ts';
import type { Log } from '../lib/ops/log.ts';
import type { MailLinkConfig } from '../lib/mail-links/email-verification.ts';
import type { MailedLink } from './mail.ts';
import { InvalidRequest } from '../lib/platform/errors.ts';
import { generatePassword } from '../lib/platform/passwords.ts';

/**
 * What a command produced: `json` for --json, `text` for people, `notice` for stderr in both;
 * `failed`: printed all the same, but the exit status is 1 (a mail that did not leave).
 */
export interface Result {
  json: unknown;
  text: string;
  notice?: string;
  failed?: boolean;
  /** The command wrote its answer to `stdout` itself: nothing more is printed. */
  streamed?: boolean;
}

/** What the use cases that mail links take (lib/users/invitations.ts, onboarding.ts). */
export interface MailingContext {
  db: Database;
  now: () => number;
  /** SMTP_URL's, as the server's; without it, outside production, no mail is sent (cli/mail.ts). */
  mailer: Mailer;
  /** Where a use case reports what went wrong beside the answer (a mail not sent): stderr, keeping stdout for the answer. */
  log: Log;
  /** The links point at ISSUER, and the mails wear the brand, like the server's. */
  config: MailLinkConfig;
  /** Each mail's link and whether it left (cli/mail.ts): without SMTP_URL none leaves, and the command prints the link. */
  mailed: readonly MailedLink[];
}

export interface Context {
  /** Where a password piped to the command comes from (the process's stdin, or a test's). */
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Where a command that streams its answer (an export) writes it; it then returns `streamed`. */
  stdout: { write(text: string): unknown };
  /** Progress for a person watching (a line rewritten in place): only when stdout is a terminal. */
  progress?: (text: string) => void;
  /** Opens (and migrates) DATABASE_URL on first call; commands call it only once their input is valid. */
  db(): Promise<Database>;
  /** The database with the mailer, for the commands that mail a link. */
  mailing(): Promise<MailingContext>;
}

export interface Command {
  summary: string;
  help: string;
  /** Schema field -> the flag or argument it came from, so validation errors name what the user typed. */
  fields?: Record<string, string>;
  run(argv: string[], ctx: Context): Promise<Result>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs with --json added, positionals allowed, and its TypeErrors turned into InvalidRequest (exit 2). */
export function parseCommand<const O extends Options>(command: string, argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options: { ...options, json: { type: 'boolean' } }, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's messages run on with advice about `--`; the first sentence is the useful part.
    const message = (error as Error).message.split(/\.\s/)[0];
    throw new InvalidRequest(`${command}: ${message} (see --help)`);
  }
}

/** Exactly the named positionals, in order. */
export function positionals(command: string, values: string[], names: string[]): string[] {
  if (values.length < names.length) throw new InvalidRequest(`${command}: missing <${names[values.length]}> (see --help)`);
  if (values.length > names.length) throw new InvalidRequest(`${command}: unexpected argument '${values[names.length]}' (see --help)`);
  return values;
}

/**
 * Passwords never travel as arguments: they would land in shell history and be
 * visible to every local user in the process list. Checked before parseArgs so
 * the value is never echoed back in an "unknown option" message.
 */
export function refusePasswordArgument(command: string, argv: string[]): void {
  const end = argv.indexOf('--');
  const flags = end === -1 ? argv : argv.slice(0, end);
  if (flags.some((a) => a === '--password' || a.startsWith('--password=') || a === '-p')) {
    throw new InvalidRequest(`${command}: passwords are not accepted as arguments (shell history, process list); use --password-stdin or --generate-password`);
  }
}

/**
 * Where a password comes from: --generate-password, --password-stdin, or a
 * piped stdin when neither flag is given. One trailing newline is dropped
 * (`echo secret |` adds it); anything else is part of the password.
 */
export async function readPassword(
  command: string,
  flags: { 'password-stdin'?: boolean; 'generate-password'?: boolean },
  stdin: NodeJS.ReadableStream & { isTTY?: boolean },
): Promise<{ password: string; generated: boolean }> {
  if (flags['password-stdin'] && flags['generate-password']) {
    throw new InvalidRequest(`${command}: choose one of --password-stdin and --generate-password`);
  }
  if (flags['generate-password']) return { password: generatePassword(), generated: true };
  if (!flags['password-stdin'] && stdin.isTTY) {
    throw new InvalidRequest(`${command}: no password given; pipe one on stdin (--password-stdin) or use --generate-password`);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer));
  const password = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (!password) throw new InvalidRequest(`${command}: no password on stdin`);
  return { password, generated: false };
}
