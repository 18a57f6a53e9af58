/**
 * "Connect your app": configuration snippets for the libraries people connect with, filled with this
 * client's values (the issuer from the configuration, the client id, its first redirect URI). The secret is
 * never written into a snippet: each reads it from an environment variable, so a snippet can be pasted into a
 * repository, shared or screenshotted. Plain text, no request read.
 */
import type { ClientPreset } from './client-presets.ts';

export type SnippetLibrary = 'openid-client' | 'authjs' | 'spring' | 'authlib' | 'go-oidc';

export interface Snippet {
  library: SnippetLibrary;
  /** The file the snippet belongs in (a name to show above it). */
  file: string;
  code: string;
}

export interface QuickstartValues {
  issuer: string;
  clientId: string;
  /** The first registered redirect URI; a placeholder the snippet names when there is none. */
  redirectUri?: string;
}

/** The environment variable every snippet reads the secret from. */
export const SECRET_VARIABLE = 'GATEHOUSE_CLIENT_SECRET';

export const discoveryUrl = (issuer: string) => `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;

/** A value as a string literal of JavaScript, Java/YAML (double-quoted), Python and Go alike: JSON's escaping is valid in each. */
const q = (value: string) => JSON.stringify(value);

/** go-oidc's provider, discovered from the issuer: both Go snippets start with it. */
const goProvider = (issuer: string) => `provider, err := oidc.NewProvider(ctx, ${q(issuer)})
if err != nil {
	log.Fatal(err)
}
`;

/** Spring Security's OAuth 2.0 client registration named gatehouse, its provider found from the issuer; `lines`: the registration's settings. */
const springClient = (issuer: string, clientId: string, lines: string[]) => `spring:
  security:
    oauth2:
      client:
        registration:
          gatehouse:
            client-id: ${q(clientId)}
${lines.map((line) => `            ${line}\n`).join('')}        provider:
          gatehouse:
            issuer-uri: ${q(issuer)}
`;

function signInSnippets({ issuer, clientId, redirectUri = 'https://app.example/callback' }: QuickstartValues, kind: 'web' | 'spa' | 'native'): Snippet[] {
  const secretJs = kind === 'web' ? `, process.env.${SECRET_VARIABLE}` : '';
  const pkceNote = kind === 'web' ? '' : '// A public client: no secret; PKCE proves the code is yours.\n';
  return [
    {
      library: 'openid-client',
      file: 'auth.mjs',
      code: `import * as client from 'openid-client';

${pkceNote}const config = await client.discovery(new URL(${q(issuer)}), ${q(clientId)}${secretJs});
const verifier = client.randomPKCECodeVerifier();
const url = client.buildAuthorizationUrl(config, {
  redirect_uri: ${q(redirectUri)},
  scope: 'openid profile email',
  code_challenge: await client.calculatePKCECodeChallenge(verifier),
  code_challenge_method: 'S256',
});
// After the redirect back:
// const tokens = await client.authorizationCodeGrant(config, new URL(callbackUrl), { pkceCodeVerifier: verifier });
`,
    },
    {
      library: 'authjs',
      file: 'auth.ts',
      code: `import NextAuth from 'next-auth';

export const { handlers, auth, signIn, signOut } = NextAuth({
  providers: [
    {
      id: 'gatehouse',
      name: 'Gatehouse',
      type: 'oidc',
      issuer: ${q(issuer)},
      clientId: ${q(clientId)},
${kind === 'web' ? `      clientSecret: process.env.${SECRET_VARIABLE},\n` : `      client: { token_endpoint_auth_method: 'none' },\n`}      checks: ['pkce', 'state'],
    },
  ],
});
// Redirect URI registered for it: ${redirectUri}
`,
    },
    {
      library: 'spring',
      file: 'application.yml',
      code: springClient(issuer, clientId, [
        kind === 'web' ? `client-secret: \${${SECRET_VARIABLE}}` : 'client-authentication-method: none',
        'authorization-grant-type: authorization_code',
        `redirect-uri: ${q(redirectUri)}`,
        'scope: openid,profile,email',
      ]),
    },
    {
      library: 'authlib',
      file: 'app.py',
      code: `import os
from authlib.integrations.flask_client import OAuth

oauth = OAuth(app)
oauth.register(
    name="gatehouse",
    server_metadata_url=${q(discoveryUrl(issuer))},
    client_id=${q(clientId)},
${kind === 'web' ? `    client_secret=os.environ[${q(SECRET_VARIABLE)}],\n` : '    token_endpoint_auth_method="none",\n'}    client_kwargs={"scope": "openid profile email", "code_challenge_method": "S256"},
)
# redirect_uri: ${redirectUri}
`,
    },
    {
      library: 'go-oidc',
      file: 'main.go',
      code: `${goProvider(issuer)}config := oauth2.Config{
	ClientID:     ${q(clientId)},
${kind === 'web' ? `	ClientSecret: os.Getenv(${q(SECRET_VARIABLE)}),\n` : ''}	Endpoint:     provider.Endpoint(),
	RedirectURL:  ${q(redirectUri)},
	Scopes:       []string{oidc.ScopeOpenID, "profile", "email"},
}
verifier := provider.Verifier(&oidc.Config{ClientID: config.ClientID})
pkce := oauth2.GenerateVerifier()
url := config.AuthCodeURL(state, oauth2.S256ChallengeOption(pkce))
`,
    },
  ];
}

/** A service or an API: a token of its own with client_credentials, or (an API) a person's token checked at the introspection endpoint. */
function serviceSnippets({ issuer, clientId }: QuickstartValues, kind: 'machine' | 'api'): Snippet[] {
  const scope = kind === 'api' ? 'introspect' : 'openid';
  return [
    {
      library: 'openid-client',
      file: 'token.mjs',
      code:
        kind === 'api'
          ? `import * as client from 'openid-client';

const config = await client.discovery(new URL(${q(issuer)}), ${q(clientId)}, process.env.${SECRET_VARIABLE});
// A bearer token your API received: is it active, whose, with which scopes?
const info = await client.tokenIntrospection(config, accessToken);
if (!info.active) throw new Error('invalid token');
`
          : `import * as client from 'openid-client';

const config = await client.discovery(new URL(${q(issuer)}), ${q(clientId)}, process.env.${SECRET_VARIABLE});
const { access_token } = await client.clientCredentialsGrant(config, { scope: ${q(scope)} });
`,
    },
    {
      library: 'spring',
      file: 'application.yml',
      code:
        kind === 'api'
          ? `spring:
  security:
    oauth2:
      resourceserver:
        opaquetoken:
          introspection-uri: ${q(`${issuer.replace(/\/$/, '')}/oauth/introspect`)}
          client-id: ${q(clientId)}
          client-secret: \${${SECRET_VARIABLE}}
`
          : springClient(issuer, clientId, [`client-secret: \${${SECRET_VARIABLE}}`, 'authorization-grant-type: client_credentials', `scope: ${scope}`]),
    },
    {
      library: 'authlib',
      file: 'client.py',
      code: `import os
from authlib.integrations.requests_client import OAuth2Session

session = OAuth2Session(${q(clientId)}, os.environ[${q(SECRET_VARIABLE)}], scope=${q(scope)})
metadata = session.get(${q(discoveryUrl(issuer))}).json()
${
  kind === 'api'
    ? `info = session.introspect_token(metadata["introspection_endpoint"], token=access_token).json()`
    : `token = session.fetch_token(metadata["token_endpoint"], grant_type="client_credentials")`
}
`,
    },
    {
      library: 'go-oidc',
      file: 'main.go',
      code: `${goProvider(issuer)}config := clientcredentials.Config{
	ClientID:     ${q(clientId)},
	ClientSecret: os.Getenv(${q(SECRET_VARIABLE)}),
	TokenURL:     provider.Endpoint().TokenURL,
	Scopes:       []string{${q(scope)}},
}
token, err := config.Token(ctx)
`,
    },
  ];
}

export function quickstartSnippets(kind: ClientPreset, values: QuickstartValues): Snippet[] {
  return kind === 'machine' || kind === 'api' ? serviceSnippets(values, kind) : signInSnippets(values, kind);
}
