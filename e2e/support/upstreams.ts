/**
 * Upstream identity providers for the federation tests, each on a loopback address of its own so
 * that its cookies never mix with Gatehouse's:
 * - `startBareProvider`: the bare oidc-provider (the library Gatehouse embeds, as anyone would run it)
 *   on 127.0.0.2, with its development login and consent pages; any login name signs in, as the
 *   account `accounts` describes.
 * - `startForger`: a hand-written OpenID Connect provider on 127.0.0.3 whose token endpoint answers
 *   one defect per issuer path (`/<mode>`): an ID token with a wrong nonce, issuer or audience, an
 *   expired one, `alg: none`, HS256 keyed with its own public key, a 500, or an `auth_time` an hour old
 *   whatever max_age or prompt=login asked (`stale_auth_time`). `/valid` is the control:
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

/** `callbackUrl`: Gatehouse's callback, or several Gatehouses' (the bench's federated sign-in row, bench/federation.ts). */
export async function startBareProvider(callbackUrl: string | string[], clientSecret: string) {
  const callbacks = typeof callbackUrl === 'string' ? [callbackUrl] : callbackUrl;
  const { server, origin } = await listen('127.0.0.2');
  const accounts = new Map<string, UpstreamAccount>();
  const provider = new Provider(origin, {
    clients: [
      {
        client_id: 'gatehouse',
        client_secret: clientSecret,
        redirect_uris: callbacks,
        // Gatehouse's return from an upstream logout (lib/federation/upstream-logout.ts).
        post_logout_redirect_uris: callbacks.map((url) => new URL('/federation/logged-out', url).toString()),
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
  // The authorization requests it received, as it got them (what Gatehouse passed on: login_hint, prompt, ...).
  const authorizations: URLSearchParams[] = [];
  server.on('request', (req) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname === '/auth') authorizations.push(url.searchParams);
  });
  server.on('request', provider.callback());
  return { issuer: origin, accounts, authorizations, close: () => close(server) };
}

export const FORGER_MODES = [
  'valid',
  'wrong_nonce',
  'wrong_issuer',
  'wrong_audience',
  'expired',
  'alg_none',
  'hmac_public_key',
  'token_500',
  'stale_auth_time',
] as const;
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
        // An upstream that ignores max_age and prompt=login: it says the person signed in an hour ago.
        ...(mode === 'stale_auth_time' ? { auth_time: now - 3600 } : {}),
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

/** A person at the GitHub-shaped server: the profile `/user` answers, and the addresses `/user/emails` lists. */
export interface GitHubAccount {
  id: number;
  login: string;
  name: string;
  /** The profile's public address, which GitHub does not say is verified. */
  email: string | null;
  emails: { email: string; primary: boolean; verified: boolean }[];
}

/**
 * A GitHub-shaped OAuth 2.0 server on 127.0.0.4 (no such mock is on the npm registry): authorize,
 * token, `/user` and `/user/emails` with a verified flag, no ID token. `next` is who signs in at the
 * next authorization.
 */
export async function startGitHubShaped(clientSecret: string) {
  const { server, origin } = await listen('127.0.0.4');
  const holder: { next?: GitHubAccount } = {};
  const codes = new Map<string, GitHubAccount>();
  const tokens = new Map<string, GitHubAccount>();
  server.on('request', async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/login/oauth/authorize') {
      const code = randomBytes(16).toString('hex');
      if (!holder.next) return json(400, { error: 'nobody' });
      codes.set(code, holder.next);
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (url.pathname === '/login/oauth/access_token' && req.method === 'POST') {
      let body = '';
      for await (const chunk of req) body += chunk;
      const form = new URLSearchParams(body);
      const account = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (!account || form.get('client_secret') !== clientSecret) return json(200, { error: 'bad_verification_code' });
      const token = `gho_${randomBytes(16).toString('hex')}`;
      tokens.set(token, account);
      return json(200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
    }
    const account = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /i, ''));
    if (!account) return json(401, { message: 'Requires authentication' });
    if (url.pathname === '/user') return json(200, { id: account.id, login: account.login, name: account.name, email: account.email });
    if (url.pathname === '/user/emails') return json(200, account.emails);
    json(404, { message: 'Not Found' });
  });
  return {
    origin,
    signInNext: (account: GitHubAccount) => {
      holder.next = account;
    },
    close: () => close(server),
  };
}
