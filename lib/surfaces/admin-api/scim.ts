/** The admin API's SCIM operations: the provisioning clients' tokens (lib/scim/tokens.ts), audited by the use cases as done by the caller. */
import 'server-only';
import { issueScimToken as issue, listScimTokens as list, revokeScimToken as revoke } from '../../scim/tokens.ts';
import { scimTokenDto } from './dto/scim.ts';
import { operations } from './operations.ts';
import { endpoint } from './route.ts';

export const listScimTokens = endpoint(operations.listScimTokens, async ({ db }) => ({ data: (await list(db)).map(scimTokenDto) }));

export const issueScimToken = endpoint(operations.issueScimToken, async ({ db, body, by }) => {
  const { token, record } = await issue(db, { name: body.name }, by);
  return { ...scimTokenDto(record), token };
});

export const revokeScimToken = endpoint(operations.revokeScimToken, async ({ db, params, by, now }) =>
  scimTokenDto(await revoke(db, params.id, { now: now(), by })),
);
