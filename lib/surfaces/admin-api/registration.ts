/**
 * The admin API's dynamic registration operations: the initial access tokens (lib/registration/tokens.ts)
 * and approving a client that registered itself (lib/registration/clients.ts). Recorded in the audit log by
 * the use cases, as done by the caller.
 */
import 'server-only';
import { approveClient as approveClientUseCase } from '../../registration/clients.ts';
import { issueInitialAccessToken, listInitialAccessTokens, revokeInitialAccessToken } from '../../registration/tokens.ts';
import { clientDto } from './dto/clients.ts';
import { registrationTokenDto } from './dto/registration.ts';
import { operations } from './operations.ts';
import { endpoint } from './route.ts';

export const approveClient = endpoint(operations.approveClient, async ({ db, params, by }) => clientDto(await approveClientUseCase(db, params.id, by), false));

export const listRegistrationTokens = endpoint(operations.listRegistrationTokens, async ({ db }) => ({
  data: (await listInitialAccessTokens(db)).map(registrationTokenDto),
}));

export const issueRegistrationToken = endpoint(operations.issueRegistrationToken, async ({ db, body, by }) => {
  const { token, record } = await issueInitialAccessToken(
    db,
    {
      name: body.name,
      maxClients: body.max_clients,
      expiresInDays: body.expires_in_days,
      redirectHosts: body.redirect_hosts,
      grantTypes: body.grant_types,
      scopes: body.scopes,
      requireApproval: body.require_approval,
    },
    { now: Date.now(), by },
  );
  return { ...registrationTokenDto(record), initial_access_token: token };
});

export const revokeRegistrationToken = endpoint(operations.revokeRegistrationToken, async ({ db, params, by }) =>
  registrationTokenDto(await revokeInitialAccessToken(db, params.id, { now: Date.now(), by })),
);
