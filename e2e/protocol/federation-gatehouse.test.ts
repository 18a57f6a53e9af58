// runs-on: once
// Another Gatehouse as the upstream identity provider: a second instance of the built app on 127.0.0.5 (its own
// database and cookies), the suite's server signing people in through it as a company's OpenID Connect provider.
// Once: what it proves is the round trip between two Gatehouses, which no store or mount changes.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import * as oidc from 'openid-client';
import { registerClient } from '../../lib/clients/manage.ts';
import { closeDatabase, database } from '../../lib/db/database.ts';
import { createConnection } from '../../lib/federation/manage.ts';
import { findIdentity } from '../../lib/federation/repository.ts';
import { createUser } from '../../lib/users/manage.ts';
import { setVerifiedEmail } from '../../lib/users/repository.ts';
import { TestBrowser, credentials } from '../support/browser.ts';
import { authorizationRequest, baseUrl, databaseUrl, makeClient } from '../support/fixtures.ts';
import { freePort, isolatedDatabase, startServer, type ServerProcess } from '../support/server.ts';

const unique = () => randomBytes(5).toString('hex');
const callbackUrl = new URL('/federation/callback', baseUrl).toString();
const own = isolatedDatabase('federation-upstream');
let upstream: ServerProcess;
let upstreamClient: { id: string; secret: string };

before(async () => {
  const port = await freePort();
  // Another loopback address than the suite's: the two instances' cookies never mix.
  upstream = await startServer({ DATABASE_URL: own.url, ISSUER: `http://127.0.0.5:${port}` }, { port, host: '127.0.0.5', ready: { timeoutMs: 60_000 } });
  const { client, clientSecret } = await registerClient(database(own.url), {
    name: 'Downstream Gatehouse',
    redirectUris: [callbackUrl],
    tokenEndpointAuthMethod: 'client_secret_post',
    firstParty: true,
  });
  assert.ok(clientSecret);
  upstreamClient = { id: client.id, secret: clientSecret };
});

after(async () => {
  await upstream?.stop();
  await closeDatabase(own.url);
  await own.drop();
});

test('a person of the upstream Gatehouse signs in here with it: created just in time with its verified address, found again by issuer and subject', async () => {
  const username = `up-${unique()}`;
  const password = `pw-${randomBytes(12).toString('base64url')}`;
  const person = await createUser(database(own.url), { username, password, email: `${username}@upstream.example`, name: 'Upstream Person', role: 'user' });
  await setVerifiedEmail(database(own.url), person.id, `${username}@upstream.example`);
  const client = await makeClient({ firstParty: true });
  const connection = await createConnection(database(databaseUrl), {
    slug: `gatehouse-${unique()}`,
    displayName: 'Head Office',
    issuer: upstream.url,
    clientId: upstreamClient.id,
    clientSecret: upstreamClient.secret,
    clientIds: [client.id],
    jitCreate: true,
  });

  const signIn = async () => {
    const request = await authorizationRequest(client);
    const browser = new TestBrowser(baseUrl);
    const page = await browser.navigate(request.url);
    const html = await page.response.text();
    assert.match(html, /Continue with Head Office/);
    const sent = await browser.submit(html, '/federation', { connection: connection.slug });
    assert.ok(sent.location, `sent upstream (${sent.url})`);
    assert.ok(sent.location.href.startsWith(`${upstream.url}/oauth/authorize?`), `to the upstream Gatehouse (${sent.location})`);
    // At the upstream: its own sign-in page, its own password.
    const there = new TestBrowser(upstream.url);
    const upstreamPage = await there.navigate(sent.location);
    const back = await there.submit(await upstreamPage.response.text(), '/login', credentials({ username, password }));
    assert.ok(back.location, `the upstream sent the browser back (${back.url})`);
    assert.equal(back.location.origin + back.location.pathname, callbackUrl);
    const end = await browser.navigate(back.location);
    assert.ok(end.location, `back at the app (${end.url})`);
    return oidc.authorizationCodeGrant(request.config, end.location, { pkceCodeVerifier: request.verifier, expectedState: request.state });
  };

  const tokens = await signIn();
  const claims = tokens.claims()!;
  assert.deepEqual(claims.amr, ['fed']);
  const identity = await findIdentity(database(databaseUrl), upstream.url, person.id);
  assert.ok(identity, "stored by the upstream's issuer and its subject (the upstream's user id)");
  assert.equal(identity.userId, claims.sub);
  const config = await oidc.discovery(new URL(baseUrl), client.id, undefined, oidc.ClientSecretBasic(client.clientSecret!), {
    execute: [oidc.allowInsecureRequests],
  });
  const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
  assert.equal(userinfo.email, `${username}@upstream.example`, 'the address the upstream vouched for');
  assert.equal(userinfo.email_verified, true);

  const again = await signIn();
  assert.equal(again.claims()!.sub, claims.sub, 'the same account the second time');
});
