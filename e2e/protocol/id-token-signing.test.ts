// runs-on: databases
// Each client's ID tokens are signed with its own id_token_signed_response_alg (OIDC Dynamic Client
// Registration §2): ES256 for new clients, RS256 for relying parties that verify nothing else.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWK } from 'jose';
import * as oidc from 'openid-client';
import { baseUrl, codeFlow, makeClient, redirectUri, signIn } from '../support/fixtures.ts';

const jwks = createRemoteJWKSet(new URL('/oauth/jwks', baseUrl));

/** The published key an ID token names by its kid. */
async function signingKey(idToken: string): Promise<JWK | undefined> {
  const { keys } = (await (await fetch(new URL('/oauth/jwks', baseUrl))).json()) as { keys: JWK[] };
  return keys.find((key) => key.kid === decodeProtectedHeader(idToken).kid);
}

for (const [alg, kty, input] of [
  ['ES256', 'EC', {}],
  ['RS256', 'RSA', { idTokenSignedResponseAlg: 'RS256' as const }],
] as const) {
  test(`a ${alg} client's ID tokens are ${alg}, signed by a published ${kty} key, at sign-in and on refresh`, async () => {
    const client = await makeClient(input);
    assert.equal(client.idTokenSignedResponseAlg, alg);
    const { tokens, user, config } = await signIn(client);
    const { payload, protectedHeader } = await jwtVerify(tokens.id_token!, jwks, { issuer: baseUrl, audience: client.id, algorithms: [alg] });
    assert.equal(protectedHeader.alg, alg);
    assert.equal(payload.sub, user.id);
    assert.equal((await signingKey(tokens.id_token!))?.kty, kty);

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    assert.equal((await jwtVerify(refreshed.id_token!, jwks, { issuer: baseUrl, audience: client.id, algorithms: [alg] })).protectedHeader.alg, alg);
  });
}

/** openid-client 5, as next-auth 4 brings it: RS256 unless the client says otherwise. */
interface OpenIdClient5 {
  Issuer: {
    discover(url: string): Promise<{
      Client: new (
        metadata: Record<string, unknown>,
      ) => { callback(redirectUri: string, params: Record<string, string>, checks: Record<string, string>): Promise<{ id_token?: string }> };
    }>;
  };
}
const openidClient5 = createRequire(createRequire(import.meta.url).resolve('next-auth'))('openid-client') as OpenIdClient5;

test('why RS256 stays: openid-client 5 (next-auth 4) without configuration accepts RS256 and refuses ES256', async () => {
  const issuer = await openidClient5.Issuer.discover(baseUrl);
  const redeem = async (client: Awaited<ReturnType<typeof makeClient>>, extra: Record<string, unknown> = {}) => {
    const { callback, verifier } = await codeFlow(client);
    const rp = new issuer.Client({
      client_id: client.id,
      client_secret: client.clientSecret,
      redirect_uris: [redirectUri],
      response_types: ['code'],
      ...extra,
    });
    // code and iss (RFC 9207, which discovery advertises), as next-auth hands them over.
    return rp.callback(redirectUri, Object.fromEntries(callback.searchParams), { code_verifier: verifier });
  };
  const rs256 = await makeClient({ idTokenSignedResponseAlg: 'RS256' });
  assert.equal(decodeProtectedHeader((await redeem(rs256)).id_token!).alg, 'RS256');
  const es256 = await makeClient();
  await assert.rejects(redeem(es256), /unexpected JWT alg received, expected RS256, got: ES256/);
  assert.equal(decodeProtectedHeader((await redeem(es256, { id_token_signed_response_alg: 'ES256' })).id_token!).alg, 'ES256');
});
