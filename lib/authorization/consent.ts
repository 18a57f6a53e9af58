/**
 * What the consent page says of an API's permissions: the API's name and each permission's
 * description, as the admin who registered it wrote them (lib/authorization/manage.ts).
 */
import type { Database } from '../db/database.ts';
import { apiForToken } from './repository.ts';

export interface AskedPermission {
  /** The API's display name. */
  api: string;
  /** The scope value. */
  permission: string;
  /** The admin's description; empty when none was given. */
  description: string;
}

/** The permissions of each resource indicator the consent step asks for (the provider's missingResourceScopes). */
export async function permissionsAsked(db: Database, missing: Record<string, string[]>): Promise<AskedPermission[]> {
  const asked: AskedPermission[] = [];
  for (const [identifier, scopes] of Object.entries(missing)) {
    if (!scopes.length) continue;
    const api = await apiForToken(db, identifier);
    if (!api) continue;
    const described = new Map(api.permissions.map((p) => [p.name, p.description]));
    for (const permission of scopes) asked.push({ api: api.name, permission, description: described.get(permission) ?? '' });
  }
  return asked;
}
