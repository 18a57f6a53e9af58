/**
 * A person in its wire names, the one serializer: what `gatehouse user --json` prints (cli/commands/) and what the
 * admin API answers (lib/surfaces/admin-api/dto/, which adds what only it knows and checks the result against its
 * schemas). Never a secret or a password hash: the record this takes carries none. Imports nothing but types, so the CLI can load
 * it without the provider.
 */
import type { UserRecord } from './repository.ts';

export function userToWire(user: UserRecord) {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    email_verified: user.emailVerified,
    name: user.name,
    role: user.role,
    disabled: user.disabled,
    invited: user.invited,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}
