/**
 * Upstream identity providers for the federation tests, each on a loopback address of its own so
 * that its cookies never mix with Gatehouse's:
 * - `startBareProvider`: the bare oidc-provider (the library Gatehouse embeds, as anyone would run it)
 *   on 127.0.0.2, with its development login and consent pages; any login name signs in, as the
 *   account `accounts` describes.
 * - `startForger`: a hand-written OpenID Connect provider on 127.0.0.3 whose token endpoint answers
 *   one defect per issuer path (`/<mode>`): an ID token with a wrong nonce, issuer or audience, an
 *   expired one, `alg: none`, HS256 keyed with its own public key, or a 500. `/valid` is the control:
 *   the same server answering correctly, so each refusal is the defect's and not the forger's.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import Provider from 'oidc-provider';

export interface UpstreamAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
}

const listen = async (host: string): Promise<{ server: Server; origin: string }> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, origin: `http://${host}:${(server.address() as AddressInfo).port}` };
};

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

export async function startBareProvider(callbackUrl: string, clientSecret: string) {
  const { server, origin } = await listen('127.0.0.2');
  const accounts = new Map<string, UpstreamAccount>();
  const provider = new Provider(origin, {
    clients: [
      {
        client_id: 'gatehouse',
        client_secret: clientSecret,
        redirect_uris: [callbackUrl],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, ...accounts.get(sub) }) }),
    cookies: { keys: [randomBytes(16).toString('hex')] },
  });
  provider.on('server_error', (_ctx, error) => console.error('upstream server_error', error));
  server.on('request', provider.callback());
  return { issuer: origin, accounts, close: () => close(server) };
}

export const FORGER_MODES = ['valid', 'wrong_nonce', 'wrong_issuer', 'wrong_audience', 'expired', 'alg_none', 'hmac_public_key', 'token_500'] as const;
export type ForgerMode = (typeof FORGER_MODES)[number];

export async function startForger() {
  const { server, origin } = await listen('127.0.0.3');
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'forger', alg: 'ES256', use: 'sig' };
  const codes = new Map<string, { nonce?: string; sub: string }>();
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  server.on('request', async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const [, mode, ...rest] = url.pathname.split('/');
    const issuer = `${origin}/${mode}`;
    const path = rest.join('/');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (path === '.well-known/openid-configuration') {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        // It advertises the weak ones too: Gatehouse's own allow-list must refuse them.
        id_token_signing_alg_values_supported: ['ES256', 'none', 'HS256'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (path === 'jwks') return json(200, { keys: [jwk] });
    if (path === 'authorize') {
      const code = randomBytes(16).toString('hex');
      codes.set(code, { nonce: url.searchParams.get('nonce') ?? undefined, sub: `forged-${mode}-${randomBytes(4).toString('hex')}` });
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(303, { location: back.toString() });
      return res.end();
    }
    if (path === 'token') {
      let body = '';
      for await (const chunk of req) body += chunk;
      if (mode === 'token_500') {
        res.writeHead(500, { 'content-type': 'text/plain' });
        return res.end('upstream broke');
      }
      const granted = codes.get(new URLSearchParams(body).get('code') ?? '');
      if (!granted) return json(400, { error: 'invalid_grant' });
      const now = Math.floor(Date.now() / 1000);
      const claims: Record<string, unknown> = {
        iss: mode === 'wrong_issuer' ? 'http://127.0.0.3:1/someone-else' : issuer,
        sub: granted.sub,
        aud: mode === 'wrong_audience' ? 'another-client' : 'gatehouse',
        nonce: mode === 'wrong_nonce' ? 'not-the-nonce' : granted.nonce,
        iat: mode === 'expired' ? now - 7200 : now,
        exp: mode === 'expired' ? now - 3600 : now + 300,
        email: `${granted.sub}@forged.example`,
        email_verified: true,
      };
      let idToken: string;
      if (mode === 'alg_none') idToken = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
      else if (mode === 'hmac_public_key') {
        // The classic key confusion: an HMAC whose secret is the published public key.
        const input = `${b64({ alg: 'HS256', typ: 'JWT', kid: 'forger' })}.${b64(claims)}`;
        idToken = `${input}.${createHmac('sha256', JSON.stringify(jwk)).update(input).digest('base64url')}`;
      } else idToken = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'forger' }).sign(privateKey);
      return json(200, { access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', expires_in: 300, id_token: idToken });
    }
    json(404, { error: 'not_found' });
  });
  return { issuerOf: (mode: ForgerMode) => `${origin}/${mode}`, close: () => close(server) };
}
