/**
 * Users. Functions return plain `UserRecord`s without the password hash (only
 * whether there is one: `invited`); the only functions that return the hash are
 * `findCredentials` and `findCredentialsById`, used where a password is
 * verified (lib/sign-in/authentication.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Prisma, User } from '../generated/sqlite/client.ts';
import type { Database } from '../db/database.ts';
import { columnList, epochMs, type RawRow } from '../db/rows.ts';
import { containsText, escapeLike } from '../db/text-search.ts';

import { toRole, type Role } from '../admin-roles/roles.ts';

export type { Role };

/**
 * A user as the CLI, the portal and the API see it: the model without its password hash and comparison key.
 * `invited`: they have no password yet (an invitation not accepted: lib/users/invitations.ts).
 */
export type UserRecord = Omit<User, 'passwordHash' | 'usernameKey' | 'role' | ProfileClaimField> & { role: Role; invited: boolean };

/** The standard profile claims beyond name and email: read and changed on their own (lib/users/profile-claims.ts). */
type ProfileClaimField = 'givenName' | 'familyName' | 'picture' | 'locale' | 'zoneinfo' | 'phoneNumber' | 'phoneNumberVerified';

const accountFields = [
  'id',
  'username',
  'email',
  'emailVerified',
  'name',
  'givenName',
  'familyName',
  'picture',
  'locale',
  'zoneinfo',
  'phoneNumber',
  'phoneNumberVerified',
  'updatedAt',
  'disabled',
] as const;

/** The claims-relevant part of a user, read on the provider's hot path with the raw driver; `updatedAt` in epoch seconds. */
export type AccountRecord = Omit<Pick<User, (typeof accountFields)[number]>, 'updatedAt'> & { updatedAt: number };

/**
 * Prisma's `select` of a UserRecord: tsc fails here when a field is added to one and not the other.
 * The hash is read only to say whether there is one (`toRecord` drops it): Prisma selects no expressions.
 */
const publicFields = {
  id: true,
  username: true,
  email: true,
  emailVerified: true,
  requiresVerifiedEmail: true,
  name: true,
  role: true,
  disabled: true,
  createdAt: true,
  updatedAt: true,
  passwordHash: true,
} as const satisfies Record<Exclude<keyof UserRecord, 'invited'> | 'passwordHash', true>;

type PublicRow = Omit<UserRecord, 'role' | 'invited'> & { role: string; passwordHash: string | null };

function toRecord({ passwordHash, ...row }: PublicRow): UserRecord {
  return { ...row, role: toRole(row.role), invited: passwordHash === null };
}

/**
 * A username as uniqueness and sign-in compare it: ASCII letters lowercased,
 * nothing else. Usernames are ASCII (lib/users/manage.ts usernameSchema),
 * and the migration that filled `username_key` folded ASCII only, on both
 * databases: full Unicode folding here would disagree with the stored keys.
 */
export function usernameKey(username: string): string {
  return username.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * Throws Prisma's P2002 when the username, in any case, or the email is taken.
 * `requiresVerifiedEmail`: a signed-up account, which signs in only once its address is verified.
 */
export async function insertUser(
  db: Database,
  user: {
    username: string;
    email: string | null;
    name: string | null;
    passwordHash: string | null;
    role: Role;
    requiresVerifiedEmail?: boolean;
    /** A provisioned person's claims, external id and state (lib/scim/users.ts), written with the row in one transaction. */
    provisioned?: NewProvisionedFields;
  },
): Promise<UserRecord> {
  const { provisioned, ...fields } = user;
  const { externalId, ...claims } = provisioned ?? { externalId: null };
  const row = await db.prisma.user.create({
    data: {
      id: randomUUID(),
      ...fields,
      ...claims,
      usernameKey: usernameKey(user.username),
      // A nested create: Prisma writes both rows in one transaction.
      ...(externalId === null ? {} : { imported: { create: { externalId } } }),
    },
    select: publicFields,
  });
  return toRecord(row);
}

/** Whether any user exists: the check every start makes, on the raw driver (no Prisma start-up cost). */
export async function hasUsers(db: Database): Promise<boolean> {
  return (await db.sql.one('SELECT id FROM users LIMIT 1')) !== undefined;
}

export async function countUsers(db: Database): Promise<number> {
  return db.prisma.user.count();
}

export async function listUsers(db: Database): Promise<UserRecord[]> {
  const rows = await db.prisma.user.findMany({ select: publicFields, orderBy: { createdAt: 'asc' } });
  return rows.map(toRecord);
}

/**
 * The user a typed username names, ignoring case. An account whose exact
 * spelling it is comes first: accounts that clashed before usernames were
 * compared without case (see `username_key` in prisma/schema/models.prisma)
 * are each still found by their own spelling.
 */
export async function findUserByUsername(db: Database, username: string): Promise<UserRecord | undefined> {
  const rows = await db.prisma.user.findMany({ where: { OR: [{ username }, { usernameKey: usernameKey(username) }] }, select: publicFields, take: 2 });
  const row = rows.find((r) => r.username === username) ?? rows[0];
  return row ? toRecord(row) : undefined;
}

export interface Credentials {
  id: string;
  /** The account's own spelling, whatever case was typed. */
  username: string;
  /** Null while an invited person has not chosen a password: no password matches. */
  passwordHash: string | null;
  disabled: boolean;
  /** A signed-up account whose address is not verified yet: the address its link went to; it may not sign in. */
  awaitingEmail: string | null;
}

const credentialsFields = ['id', 'username', 'passwordHash', 'disabled', 'email', 'emailVerified', 'requiresVerifiedEmail'] as const;
const credentialsColumns = columnList<User>(credentialsFields);
type CredentialsRow = RawRow<User, (typeof credentialsFields)[number]>;

const toCredentials = (row: CredentialsRow | undefined): Credentials | undefined =>
  row
    ? {
        id: row.id,
        username: row.username,
        passwordHash: row.password_hash,
        disabled: Boolean(row.disabled),
        awaitingEmail: row.requires_verified_email && !row.email_verified ? (row.email ?? '') : null,
      }
    : undefined;

/** For password checks only: the id, hash and state of the account a typed username names (as findUserByUsername). */
export async function findCredentials(db: Database, username: string): Promise<Credentials | undefined> {
  return toCredentials(
    await db.sql.one<CredentialsRow>(
      `SELECT ${credentialsColumns} FROM users WHERE username = ? OR username_key = ?
       ORDER BY CASE WHEN username = ? THEN 0 ELSE 1 END LIMIT 1`,
      [username, usernameKey(username), username],
    ),
  );
}

/**
 * The account a "forgot password" form names: by email address when the text
 * has an @ (compared without case: mail systems treat addresses so), else by
 * username as signing in finds it.
 */
export async function findUserByUsernameOrEmail(db: Database, text: string): Promise<UserRecord | undefined> {
  if (!text.includes('@')) return findUserByUsername(db, text);
  const row = await findUserIdByEmail(db, text);
  return row ? findUserById(db, row.id) : undefined;
}

/** For password checks only: the same, by the account's id. */
export async function findCredentialsById(db: Database, id: string): Promise<Credentials | undefined> {
  return toCredentials(await db.sql.one<CredentialsRow>(`SELECT ${credentialsColumns} FROM users WHERE id = ?`, [id]));
}

/**
 * Groups of accounts whose usernames differ only in case, the one holding the
 * plain key (the oldest) first. They can exist only from before `username_key`:
 * the migration gave the younger ones a `<key>#<id>` key.
 */
export async function findUsernameClashes(db: Database): Promise<string[][]> {
  // '#' is no LIKE wildcard; a username cannot contain it, so only the migration wrote it.
  const marked = await db.sql.all<{ id: string; username: string; username_key: string }>(
    "SELECT id, username, username_key FROM users WHERE username_key LIKE '%#%'",
  );
  if (marked.length === 0) return [];
  const keyOf = (row: { username_key: string }) => row.username_key.slice(0, row.username_key.indexOf('#'));
  const holders = await db.prisma.user.findMany({
    where: { usernameKey: { in: [...new Set(marked.map(keyOf))] } },
    select: { username: true, usernameKey: true },
  });
  const groups = new Map(holders.map((h) => [h.usernameKey, [h.username]]));
  for (const row of marked.sort((a, b) => a.id.localeCompare(b.id))) groups.get(keyOf(row))?.push(row.username);
  return [...groups.values()].filter((group) => group.length > 1);
}

const accountQuery = `SELECT ${columnList<User>(accountFields)} FROM users WHERE id = ?`;

/** The read cache's key of the account behind a `sub` (lib/db/read-cache.ts): forget it after a write it does not see. */
export const accountCacheKey = (id: string) => `Account:${id}`;

/** The account behind a `sub`, for claims and token issuance (hot path: raw driver). */
export async function findAccount(db: Database, id: string): Promise<AccountRecord | undefined> {
  const row = await db.sql.one<RawRow<User, (typeof accountFields)[number]>>(accountQuery, [id]);
  if (!row) return undefined;
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    emailVerified: Boolean(row.email_verified),
    name: row.name,
    givenName: row.given_name,
    familyName: row.family_name,
    picture: row.picture,
    locale: row.locale,
    zoneinfo: row.zoneinfo,
    phoneNumber: row.phone_number,
    phoneNumberVerified: Boolean(row.phone_number_verified),
    updatedAt: toEpochSeconds(row.updated_at),
    disabled: Boolean(row.disabled),
  };
}

/** The `updated_at` claim's epoch seconds, read as lib/db/rows.ts epochMs reads every raw DateTime (UTC on both databases). */
const toEpochSeconds = (value: unknown): number => Math.floor(epochMs(value) / 1000);

/**
 * Renames a user (Prisma's P2002 when the new name, in any case, is taken).
 * When the old name's plain key is freed, the oldest account that clashed with
 * it before keys existed (`<key>#<id>`, see prisma/schema/models.prisma) takes
 * it over, so any spelling of that name reaches an account again.
 */
export async function setUsername(db: Database, id: string, username: string): Promise<UserRecord | undefined> {
  const before = await db.prisma.user.findUnique({ where: { id }, select: { usernameKey: true } });
  if (!before) return undefined;
  await db.prisma.user.update({ where: { id }, data: { username, usernameKey: usernameKey(username) } });
  const freed = before.usernameKey;
  if (!freed.includes('#') && freed !== usernameKey(username)) {
    const heir = await db.prisma.user.findFirst({
      where: { usernameKey: { startsWith: `${escapeLike(freed)}#` } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true, usernameKey: true },
    });
    // startsWith ignores case on SQLite; keys are lowercase, so this only confirms the prefix.
    if (heir?.usernameKey.startsWith(`${freed}#`)) await db.prisma.user.update({ where: { id: heir.id }, data: { usernameKey: freed } });
  }
  return findUserById(db, id);
}

/** A new password also ends every trusted device of the account (lib/sign-in/trusted-devices.ts): trust was given with the old one. */
export async function setPasswordHash(db: Database, id: string, passwordHash: string): Promise<boolean> {
  const [{ count }] = await db.prisma.$transaction([
    db.prisma.user.updateMany({ where: { id }, data: { passwordHash } }),
    db.prisma.trustedDevice.deleteMany({ where: { userId: id } }),
    // A password set here is the person's: a later import no longer replaces it (lib/users/import.ts).
    db.prisma.userImport.updateMany({ where: { userId: id, passwordImported: true }, data: { passwordImported: false } }),
  ]);
  return count === 1;
}

export async function setUserDisabled(db: Database, id: string, disabled: boolean): Promise<UserRecord | undefined> {
  const { count } = await db.prisma.user.updateMany({ where: { id }, data: { disabled } });
  return count === 1 ? findUserById(db, id) : undefined;
}

/** The user behind a `sub` with their role, for the portal's authorization check on every request. */
export async function findUserById(db: Database, id: string): Promise<UserRecord | undefined> {
  const row = await db.prisma.user.findUnique({ where: { id }, select: publicFields });
  return row ? toRecord(row) : undefined;
}

/**
 * One page of users, newest first, whose username, email or name contains
 * `query` (literally, ignoring case: lib/db/text-search.ts), and how many match in all.
 */
/** The columns a list of users may be ordered by. */
export const USER_SORTS = ['username', 'email', 'status', 'createdAt'] as const;
export type UserSort = { column: (typeof USER_SORTS)[number]; direction: 'asc' | 'desc' };

// Usernames by their lowercased key, as they are compared; emails with none last either way.
const userOrder = ({ column, direction }: UserSort) =>
  column === 'username'
    ? { usernameKey: direction }
    : column === 'email'
      ? { email: { sort: direction, nulls: 'last' as const } }
      : column === 'status'
        ? { disabled: direction }
        : { createdAt: direction };

/** One page of users, newest first unless `sort` says otherwise (the id breaks ties, so pages never overlap). */
export async function searchUsers(
  db: Database,
  { query, skip, take, sort }: { query?: string; skip: number; take: number; sort?: UserSort },
): Promise<{ users: UserRecord[]; total: number }> {
  const contains = (value: string) => containsText(db.sql.kind, value);
  const where = query ? { OR: [{ username: contains(query) }, { email: contains(query) }, { name: contains(query) }] } : {};
  const orderBy = [
    sort ? userOrder(sort) : { createdAt: 'desc' as const },
    ...(sort?.column === 'createdAt' ? [] : [{ createdAt: 'desc' as const }]),
    { id: 'asc' as const },
  ];
  const [rows, total] = await Promise.all([db.prisma.user.findMany({ where, select: publicFields, orderBy, skip, take }), db.prisma.user.count({ where })]);
  return { users: rows.map(toRecord), total };
}

/**
 * Makes `email` the account's address, verified (its verification link was
 * used). Throws Prisma's P2002 when another account has taken the address since.
 */
export async function setVerifiedEmail(db: Database, id: string, email: string): Promise<UserRecord | undefined> {
  const { count } = await db.prisma.user.updateMany({ where: { id }, data: { email, emailVerified: true } });
  return count === 1 ? findUserById(db, id) : undefined;
}

/**
 * Marks the account's address verified if it still is `email` (a mailed link
 * proved the mailbox: a password reset's). False when the address changed since.
 */
export async function markEmailVerified(db: Database, id: string, email: string): Promise<boolean> {
  const { count } = await db.prisma.user.updateMany({ where: { id, email, emailVerified: false }, data: { emailVerified: true } });
  return count === 1;
}

/** The id and username of the account with this address, compared without case (as mail systems do). */
export async function findUserIdByEmail(db: Database, email: string): Promise<{ id: string; username: string } | undefined> {
  return db.sql.one<{ id: string; username: string }>('SELECT id, username FROM users WHERE lower(email) = lower(?) LIMIT 1', [email]);
}

/** Removes an account that was never used: a sign-up whose verification mail could not be sent. */
export async function deleteUser(db: Database, id: string): Promise<boolean> {
  const { count } = await db.prisma.user.deleteMany({ where: { id } });
  return count === 1;
}

/** Replaces a user's name and email; a changed email is no longer verified. */
export async function updateUserProfile(db: Database, id: string, profile: { name: string | null; email: string | null }): Promise<UserRecord | undefined> {
  const current = await findUserById(db, id);
  if (!current) return undefined;
  const emailVerified = current.email === profile.email ? current.emailVerified : false;
  const { count } = await db.prisma.user.updateMany({ where: { id }, data: { ...profile, emailVerified } });
  return count === 1 ? findUserById(db, id) : undefined;
}

const profileClaimFields = {
  givenName: true,
  familyName: true,
  picture: true,
  locale: true,
  zoneinfo: true,
  phoneNumber: true,
  phoneNumberVerified: true,
} as const;

/** The standard profile claims beyond name and email (lib/users/profile-claims.ts). */
export async function findProfileClaims(db: Database, id: string) {
  return (await db.prisma.user.findUnique({ where: { id }, select: profileClaimFields })) ?? undefined;
}

export async function updateProfileClaimsRow(
  db: Database,
  id: string,
  claims: { [K in keyof typeof profileClaimFields]: K extends 'phoneNumberVerified' ? boolean : string | null },
): Promise<boolean> {
  return (await db.prisma.user.updateMany({ where: { id }, data: claims })).count === 1;
}

/** How many enabled people hold the owner role: the last one may not be demoted, disabled or deleted. */
export function countEnabledOwners(db: Database): Promise<number> {
  return db.prisma.user.count({ where: { role: 'owner', disabled: false } });
}

export async function setUserRole(db: Database, id: string, role: Role): Promise<UserRecord | undefined> {
  const { count } = await db.prisma.user.updateMany({ where: { id }, data: { role } });
  return count === 1 ? findUserById(db, id) : undefined;
}

/**
 * An invited person's first password, with the address the invitation went to
 * verified: one conditional UPDATE, so it happens only while the account has no
 * password and still has that address (an admin may have set a password or
 * changed the address since the mail). False when nothing matched.
 */
export async function setFirstPassword(db: Database, id: string, passwordHash: string, email: string): Promise<boolean> {
  const { count } = await db.prisma.user.updateMany({ where: { id, passwordHash: null, email }, data: { passwordHash, emailVerified: true } });
  return count === 1;
}

/** A `where` over people, as lib/scim/filter.ts translates a SCIM filter into one. */
export type UserWhere = Prisma.UserWhereInput;
export type UserOrder = Prisma.UserOrderByWithRelationInput;

/** What a provisioning client sees of a person (lib/scim/users.ts): the record, the profile claims it maps, the external id, the groups. */
export type ProvisionedUser = UserRecord & ProvisionedFields & { groups: { id: string; name: string }[] };

/** The profile claims a provisioning client maps beyond name and email, and its external id for the person. */
interface ProvisionedFields {
  givenName: string | null;
  familyName: string | null;
  locale: string | null;
  zoneinfo: string | null;
  phoneNumber: string | null;
  externalId: string | null;
}

/** What a provisioning client sets on a new person beside the username, name, email and password. */
export type NewProvisionedFields = ProvisionedFields & { disabled: boolean };

const provisionedFields = {
  ...publicFields,
  givenName: true,
  familyName: true,
  locale: true,
  zoneinfo: true,
  phoneNumber: true,
  imported: { select: { externalId: true } },
  groups: { select: { group: { select: { id: true, name: true } } }, orderBy: { group: { name: 'asc' } } },
} as const;

type ProvisionedRow = PublicRow & {
  givenName: string | null;
  familyName: string | null;
  locale: string | null;
  zoneinfo: string | null;
  phoneNumber: string | null;
  imported: { externalId: string } | null;
  groups: { group: { id: string; name: string } }[];
};

function toProvisioned({ givenName, familyName, locale, zoneinfo, phoneNumber, imported, groups, ...row }: ProvisionedRow): ProvisionedUser {
  return {
    ...toRecord(row),
    givenName,
    familyName,
    locale,
    zoneinfo,
    phoneNumber,
    externalId: imported?.externalId ?? null,
    groups: groups.map((g) => g.group),
  };
}

export async function findProvisionedUser(db: Database, id: string): Promise<ProvisionedUser | undefined> {
  const row = await db.prisma.user.findUnique({ where: { id }, select: provisionedFields });
  return row ? toProvisioned(row) : undefined;
}

/** One page of the people `where` selects, in `orderBy`'s order (the id breaks ties), and how many it selects in all. */
export async function findProvisionedUsers(
  db: Database,
  { where, orderBy, skip, take }: { where: UserWhere; orderBy: UserOrder[]; skip: number; take: number },
): Promise<{ users: ProvisionedUser[]; total: number }> {
  const [rows, total] = await Promise.all([
    take > 0 ? db.prisma.user.findMany({ where, select: provisionedFields, orderBy: [...orderBy, { id: 'asc' }], skip, take }) : [],
    db.prisma.user.count({ where }),
  ]);
  return { users: rows.map(toProvisioned), total };
}

/** What one PUT or PATCH of a User changes at once (lib/scim/users.ts): the fields a provisioning client maps, as they are to be. */
export type ProvisionedChange = Pick<UserRecord, 'username' | 'name' | 'email'> & ProvisionedFields;

/**
 * Stores a provisioned change in one transaction, all of it or none: the username (handing the freed key on as
 * setUsername does), name and email (a changed email is no longer verified), the mapped profile claims (a changed
 * phone number is no longer verified) and the external id. Throws Prisma's P2002, having changed nothing, when
 * the username, the email or the external id is another person's. False when there is no such person.
 */
export async function updateProvisionedUser(db: Database, id: string, change: ProvisionedChange): Promise<boolean> {
  const before = await db.prisma.user.findUnique({
    where: { id },
    select: {
      username: true,
      usernameKey: true,
      email: true,
      emailVerified: true,
      phoneNumber: true,
      phoneNumberVerified: true,
      imported: { select: { externalId: true } },
    },
  });
  if (!before) return false;
  const { externalId, username, ...fields } = change;
  const renamed = username !== before.username;
  const key = usernameKey(username);
  const freed = before.usernameKey;
  const heir =
    renamed && !freed.includes('#') && freed !== key
      ? await db.prisma.user.findFirst({
          where: { usernameKey: { startsWith: `${escapeLike(freed)}#` } },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          select: { id: true, usernameKey: true },
        })
      : null;
  const data = {
    ...fields,
    // Unrenamed, the key stays as it is: a migration's `<key>#<id>` (above) is kept, not made to collide.
    ...(renamed ? { username, usernameKey: key } : {}),
    emailVerified: before.email === change.email ? before.emailVerified : false,
    phoneNumberVerified: change.phoneNumber !== null && change.phoneNumber === before.phoneNumber ? before.phoneNumberVerified : false,
  };
  await db.prisma.$transaction([
    db.prisma.user.update({ where: { id }, data }),
    // startsWith ignores case on SQLite; keys are lowercase, so this only confirms the prefix.
    ...(heir?.usernameKey.startsWith(`${freed}#`) ? [db.prisma.user.update({ where: { id: heir.id }, data: { usernameKey: freed } })] : []),
    ...(externalId === (before.imported?.externalId ?? null)
      ? []
      : [
          externalId === null
            ? db.prisma.userImport.deleteMany({ where: { userId: id } })
            : db.prisma.userImport.upsert({ where: { userId: id }, create: { userId: id, externalId }, update: { externalId } }),
        ]),
  ]);
  return true;
}
