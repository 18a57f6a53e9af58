/**
 * `gatehouse user ...`: create (with a password or an invitation), list, resend invitations,
 * set passwords, rename, disable, enable, delete and unlock users, and reset their two-step verification.
 * Users are named by username here and by id in the use cases: each command
 * resolves the name once (userIdByUsername, any case). Passwords come from
 * stdin or are generated, never from arguments.
 */
import { z } from 'zod';
import { env } from '../../lib/config/env.ts';
import { BY_CLI } from '../../lib/audit/log.ts';
import type { UserRecord } from '../../lib/users/repository.ts';
import { InvalidRequest, NotFound, parseInput } from '../../lib/platform/errors.ts';
import {
  changePassword,
  deleteUser,
  disableUser,
  enableUser,
  listUsers,
  newUserSchema,
  passwordSchema,
  renameUser,
  resetSecondFactors,
  setRole,
  unlockUser,
  userIdByUsername,
  userIdByUsernameOrId,
  usernameSchema,
} from '../../lib/users/manage.ts';
import { VERIFICATION_LINK_HOURS } from '../../lib/mail-links/email-verification.ts';
import { userToWire } from '../../lib/users/wire.ts';
import { type MailingContext, parseCommand, positionals, readPassword, refusePasswordArgument, type Command, type Result } from '../args.ts';
import { unsentLink } from '../mail.ts';
import { importCommands } from './import.ts';
import { table } from '../output.ts';
import { ADMIN_ROLES, ROLES, roleSchema } from '../../lib/admin-roles/roles.ts';

const passwordFlags = `  --password-stdin      read the password from stdin (one trailing newline is dropped);
                        the default when stdin is a pipe: printf %s "$PW" | npm run gatehouse -- ...
  --generate-password   generate a strong password and print it once`;

const passwordNote = `A password is never accepted as an argument: it would be kept in shell history
and be visible to other local users in the process list.`;

const passwordOptions = {
  'password-stdin': { type: 'boolean' },
  'generate-password': { type: 'boolean' },
} as const;

const generatedNotice = 'This password is shown only once; pass it on to its owner over a safe channel.';

/**
 * The mailing use cases are loaded by the commands that mail (as `unlock` loads the throttle): every
 * other command starts without them. Their link's lifetime, for the help texts (cli/invitations.test.ts checks it).
 */
const mailingUseCases = () => Promise.all([import('../../lib/users/invitations.ts'), import('../../lib/users/onboarding.ts')]);
const INVITATION_DAYS = 7;

const mailNote = `A user with an email address gets a mail: the invitation with --invite, else a
link that verifies the address. Mail goes through SMTP_URL, as the server's;
without it, outside production, no mail is sent and the link is printed for
you to pass on. The link points at ISSUER: run with the server's.`;

/** Without SMTP_URL: that no mail left, and the link to pass on (on a line of its own, to copy). */
const notSent = (what: string, email: string | null, link: string) =>
  `No mail was sent (SMTP_URL is not set). Give ${email ?? 'them'} ${what} yourself:\n${link}`;

/**
 * An invitation's outcome: printed either way; exit 1 when the mail did not leave (the user stays invited).
 * Without SMTP_URL nothing is sent and the link is printed instead: it works as the mail's would.
 */
function invitationResult(mail: MailingContext, user: UserRecord, sent: boolean, verb: string): Result {
  const expires = `the link works once, for ${INVITATION_DAYS} days`;
  const link = sent ? unsentLink(mail.mailed) : undefined;
  if (link) {
    return {
      json: { ...userToWire(user), mail_sent: false, link },
      text: `${verb} ${user.username}. ${notSent(`the invitation's link (${expires})`, user.email, link)}`,
    };
  }
  return {
    json: { ...userToWire(user), mail_sent: sent },
    text: sent ? `${verb} ${user.username}: the invitation is on its way to ${user.email} (${expires}).` : `${verb} ${user.username}`,
    notice: sent ? undefined : `The invitation could not be sent (see the mail server's error above); try again: gatehouse user invite ${user.username}`,
    failed: !sent,
  };
}

/** A role named on the command line, checked by its field (the command's `fields` name the flag or argument in the error). */
const roleOf = (role: string) => parseInput(z.strictObject({ role: roleSchema }), { role }).role;

/** What a new user is, for the line that says they were made: `user`, or their admin role. */
const roleWord = (user: UserRecord) => (user.role === 'user' ? 'user' : user.role.replace('_', ' '));

const create: Command = {
  summary: 'create a user (password from stdin or generated, or an invitation)',
  help: `Usage: gatehouse user create <username> [--email E] [--name N] [--admin-role R] [--password-stdin | --generate-password | --invite]

  --email E             email address
  --name N              full name
  --admin-role R        give the user an admin role: ${ADMIN_ROLES.join(', ')}
                        (see gatehouse user set-role --help)
  --admin               the same as --admin-role admin
${passwordFlags}
  --invite              no password: mail --email (required) a link that works
                        once, for ${INVITATION_DAYS} days, to choose one (it verifies the address too)
  --json                print the user as JSON (with "password" only when generated,
                        "mail_sent" when they have an email)

${passwordNote}
${mailNote} An invitation that could not be sent
leaves the user invited and exits 1: send it again with gatehouse user invite.
`,
  fields: { username: '<username>', email: '--email', name: '--name', password: 'password', role: '--admin-role' },
  async run(argv, ctx) {
    refusePasswordArgument('user create', argv);
    const { values, positionals: rest } = parseCommand('user create', argv, {
      email: { type: 'string' },
      name: { type: 'string' },
      admin: { type: 'boolean' },
      'admin-role': { type: 'string' },
      invite: { type: 'boolean' },
      ...passwordOptions,
    });
    const [username] = positionals('user create', rest, ['username']);
    if (values.admin && values['admin-role'] !== undefined) throw new InvalidRequest('user create: --admin is --admin-role admin; give one of them');
    const role = roleOf(values['admin-role'] ?? (values.admin ? 'admin' : 'user'));
    const fields = { username, email: values.email ?? null, name: values.name ?? null, role };
    if (values.invite) {
      if (values['password-stdin'] || values['generate-password']) throw new InvalidRequest('user create: --invite takes no password (the person chooses it)');
      if (!fields.email) throw new InvalidRequest('user create: --invite needs --email');
      const [{ invitedUserSchema, inviteUser }] = await mailingUseCases();
      parseInput(invitedUserSchema, fields); // bad input fails here, before a database is opened
      const mail = await ctx.mailing();
      const { user, invitation } = await inviteUser(mail, fields, BY_CLI);
      return invitationResult(mail, user, invitation.status === 'sent', `Invited ${roleWord(user)}`);
    }
    const { password, generated } = await readPassword('user create', values, ctx.stdin);
    const input = { ...fields, password };
    parseInput(newUserSchema, input); // bad input fails here, before a database is opened or created
    const [, { addUser }] = await mailingUseCases();
    const mail = await ctx.mailing();
    const { user, verification } = await addUser(mail, input, BY_CLI, { generated });
    const lines = [`Created ${roleWord(user)} ${user.username}`, ...(generated ? [`password: ${password}`] : [])];
    const link = verification === 'sent' ? unsentLink(mail.mailed) : undefined;
    if (link) lines.push(notSent(`the link that verifies the address (for ${VERIFICATION_LINK_HOURS} hours)`, user.email, link));
    else if (verification === 'sent') lines.push(`A link to verify ${user.email} is on its way.`);
    const notices = [
      ...(generated ? [generatedNotice] : []),
      ...(verification === 'failed'
        ? [`The link to verify ${user.email} could not be sent; an admin can send it again from the user's page in the portal.`]
        : []),
    ];
    return {
      json: {
        ...userToWire(user),
        ...(generated ? { password } : {}),
        ...(verification ? { mail_sent: verification === 'sent' && !link } : {}),
        ...(link ? { link } : {}),
      },
      text: lines.join('\n'),
      notice: notices.length ? notices.join('\n') : undefined,
    };
  },
};

const invite: Command = {
  summary: 'send an invited user a new invitation link',
  help: `Usage: gatehouse user invite <username> [--json]

Mails the user's address a new link (once, for ${INVITATION_DAYS} days) to choose their password;
it replaces the earlier one once it has left. Only for a user created with
--invite who has not chosen a password yet (exits 1 otherwise, and when the mail
could not be sent: the earlier link then still works). Mail goes through
SMTP_URL, as the server's; without it, outside production, no mail is sent and
the link is printed for you to pass on. The link points at ISSUER: run with the server's.
`,
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('user invite', argv, {});
    const [username] = positionals('user invite', rest, ['username']);
    const [{ resendInvitation }] = await mailingUseCases();
    const mail = await ctx.mailing();
    const { user, invitation } = await resendInvitation(mail, await userIdByUsername(mail.db, username), BY_CLI);
    return invitationResult(mail, user, invitation.status === 'sent', 'Invited');
  },
};

const list: Command = {
  summary: 'list users',
  help: `Usage: gatehouse user list [--json]
`,
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('user list', argv, {});
    positionals('user list', rest, []);
    const users = await listUsers(await ctx.db());
    const status = (u: UserRecord) => (u.disabled ? 'disabled' : u.invited ? 'invited' : 'active');
    const rows = users.map((u) => [u.username, u.name ?? '', u.email ?? '', u.role, status(u), u.createdAt.toISOString()]);
    return {
      json: users.map(userToWire),
      text: table(['USERNAME', 'NAME', 'EMAIL', 'ROLE', 'STATUS', 'CREATED'], rows, 'No users.'),
    };
  },
};

const setPassword: Command = {
  summary: "replace a user's password",
  help: `Usage: gatehouse user set-password <username> [--password-stdin | --generate-password]

${passwordFlags}
  --json                print {"username", "ended_sessions", "password" (only when generated)}

Every Gatehouse session of the user ends: browsers signed in with the old
password sign in again. ${passwordNote} Exits 1 if there is no such user.
`,
  async run(argv, ctx) {
    refusePasswordArgument('user set-password', argv);
    const { values, positionals: rest } = parseCommand('user set-password', argv, passwordOptions);
    const [username] = positionals('user set-password', rest, ['username']);
    const { password, generated } = await readPassword('user set-password', values, ctx.stdin);
    parseInput(passwordSchema, password);
    const db = await ctx.db();
    const { endedSessions } = await changePassword(db, await userIdByUsername(db, username), password, BY_CLI, { generated });
    const ended =
      endedSessions === 0 ? 'they had no session to end' : endedSessions === 1 ? 'their one session ended' : `their ${endedSessions} sessions ended`;
    return {
      json: { username, ended_sessions: endedSessions, ...(generated ? { password } : {}) },
      text: generated ? `New password for ${username}: ${password}\n${ended}` : `Password changed for ${username}; ${ended}`,
      notice: generated ? generatedNotice : undefined,
    };
  },
};

const disable: Command = {
  summary: 'disable a user, ending their sessions and revoking their tokens',
  help: `Usage: gatehouse user disable <username> [--json]

The user can no longer sign in; their sessions end and every token and grant
they hold is revoked. Exits 1 if there is no such user.
`,
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('user disable', argv, {});
    const [username] = positionals('user disable', rest, ['username']);
    const db = await ctx.db();
    const user = await disableUser(db, await userIdByUsername(db, username), BY_CLI);
    return { json: userToWire(user), text: `Disabled ${user.username}; their sessions ended and their tokens are revoked.` };
  },
};

const remove: Command = {
  summary: 'delete a user for good, ending their sessions and revoking their tokens',
  help: `Usage: gatehouse user delete <username|id> [--json]

Deletes the account with its two-step verification, links to other providers and
memberships; first every session ends (apps registered for back-channel logout
get their logout token) and every token, grant and consent goes. The audit log
keeps a pseudonymous entry (the account's id, not its username). The same as the
portal's Delete and DELETE /api/admin/users/{id}. The last enabled owner cannot
be deleted. Exits 1 if there is no such user.
`,
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('user delete', argv, {});
    const [name] = positionals('user delete', rest, ['username|id']);
    const db = await ctx.db();
    const id = await userIdByUsernameOrId(db, name);
    if (!(await deleteUser(db, id, BY_CLI))) throw new NotFound(`no user named ${name}`);
    return { json: { id, deleted: true }, text: `Deleted ${name}; their sessions ended and their tokens are revoked.` };
  },
};

const enable: Command = {
  summary: 'let a disabled user sign in again',
  help: `Usage: gatehouse user enable <username> [--json]

Exits 1 if there is no such user.
`,
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('user enable', argv, {});
    const [username] = positionals('user enable', rest, ['username']);
    const db = await ctx.db();
    const user = await enableUser(db, await userIdByUsername(db, username), BY_CLI);
    return { json: userToWire(user), text: `Enabled ${user.username}.` };
  },
};

const setRoleCommand: Command = {
  summary: 'give a user an admin role, change it, or take it away',
  help: `Usage: gatehouse user set-role <username> <role> [--json]

  <role>   ${ROLES.join(' | ')}
           owner         everything, other owners included
           admin         clients, users, keys and settings; everything but owners
           user_manager  users: create, change, unlock, reset two-step, invite
           auditor       reads everything, the audit log included; changes nothing
           user          no admin role

The CLI acts as the system and may give any role, but the last enabled owner
stays one (make someone else an owner first). The change is in the audit log and
takes effect at the user's next request. Exits 1 if there is no such user.
`,
  fields: { role: '<role>' },
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('user set-role', argv, {});
    const [username, role] = positionals('user set-role', rest, ['username', 'role']);
    const parsed = roleOf(role); // bad input fails here, before a database is opened
    const db = await ctx.db();
    const user = await setRole(db, await userIdByUsername(db, username), parsed, BY_CLI);
    return { json: userToWire(user), text: `${user.username} now has ${user.role === 'user' ? 'no admin role' : `the ${user.role} role`}.` };
  },
};

const rename: Command = {
  summary: 'give a user another username',
  help: `Usage: gatehouse user rename <username> <new-username> [--json]

The user keeps their id (the sub apps know them by), password and sessions.
Usernames are unique regardless of case: a name another account has, in any
case, is refused. Exits 1 if there is no such user or the name is taken.
`,
  fields: { username: '<new-username>' },
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('user rename', argv, {});
    const [username, newUsername] = positionals('user rename', rest, ['username', 'new-username']);
    parseInput(usernameSchema, newUsername); // bad input fails here, before a database is opened
    const db = await ctx.db();
    const user = await renameUser(db, await userIdByUsername(db, username), newUsername, BY_CLI);
    return { json: userToWire(user), text: `Renamed ${username} to ${user.username}.` };
  },
};

const unlock: Command = {
  summary: 'lift the lock that failed password checks put on a user',
  help: `Usage: gatehouse user unlock <username> [--json]

The user may sign in again at once, and the day's count of failed password
checks starts again. Recorded in the audit log only when there was a lock.
--json prints the user with "locked_until": null and "was_locked".
Exits 1 if there is no such user.
`,
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('user unlock', argv, {});
    const [username] = positionals('user unlock', rest, ['username']);
    const db = await ctx.db();
    const id = await userIdByUsername(db, username);
    // The server's counters (the database, or Redis with REDIS_URL), opened only for this command: the CLI builds no server context.
    const { createThrottle, throttleSettings } = await import('../../lib/platform/throttle.ts');
    const throttle = createThrottle({ db, redisUrl: env().REDIS_URL, settings: throttleSettings() });
    try {
      const { user, wasLocked } = await unlockUser({ db, throttle }, id, BY_CLI);
      return {
        json: { ...userToWire(user), locked_until: null, was_locked: wasLocked },
        text: wasLocked ? `Unlocked ${user.username}: they can sign in again.` : `${user.username} was not locked.`,
      };
    } finally {
      await throttle.close();
    }
  },
};

const resetTwoStep: Command = {
  summary: "reset a user's two-step verification (a lost authenticator)",
  help: `Usage: gatehouse user reset-2fa <username> [--json]

Removes the user's TOTP factor (confirmed or still being set up), every
passkey and every recovery code: they sign in with their password alone and may set two-step
verification up again. Nothing else ends (sessions, grants and the password
stay). Recorded in the audit log only when something was removed.
--json prints the user with "second_factor" (now off) and "removed":
{"totp", "passkeys", "recovery_codes"}. Exits 1 if there is no such user.
`,
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('user reset-2fa', argv, {});
    const [username] = positionals('user reset-2fa', rest, ['username']);
    const db = await ctx.db();
    const { user, totp, passkeys, recoveryCodes } = await resetSecondFactors(db, await userIdByUsername(db, username), BY_CLI);
    const counted = (n: number, what: string) => (n ? `${n} ${what}${n === 1 ? '' : 's'}` : '');
    const removed = [totp ? 'the authenticator app' : '', counted(passkeys, 'passkey'), counted(recoveryCodes, 'recovery code')].filter(Boolean);
    return {
      json: {
        ...userToWire(user),
        second_factor: { totp: false, totp_since: null, passkeys: [], recovery_codes_left: 0 },
        removed: { totp, passkeys, recovery_codes: recoveryCodes },
      },
      text: removed.length
        ? `Reset two-step verification of ${user.username}: removed ${new Intl.ListFormat('en', { type: 'conjunction' }).format(removed)}. They sign in with their password alone.`
        : `${user.username} had no two-step verification.`,
    };
  },
};

export const userCommands: Record<string, Command> = {
  create,
  invite,
  list,
  'set-password': setPassword,
  rename,
  'set-role': setRoleCommand,
  disable,
  enable,
  delete: remove,
  unlock,
  'reset-2fa': resetTwoStep,
  ...importCommands,
};
