/**
 * Presets for the providers people ask for first: each is only a filled-in connection of one of the two
 * kinds (OpenID Connect by discovery, or GitHub-shaped OAuth 2.0), which the admin completes with the
 * client id and secret they registered there (the callback to register: /federation/callback under
 * ISSUER). Everything stays editable afterwards. Their icons are local drawings under public/connections/
 * (the sign-in page loads no remote images); `generic.svg` is for any other provider.
 */
import type { NewConnectionInput } from './manage.ts';

export const PRESETS = ['google', 'microsoft', 'github', 'gitlab'] as const;
export type Preset = (typeof PRESETS)[number];

/** The preset's fields; Microsoft Entra ID needs the directory (tenant) id, whose issuer is its own. */
export function presetFields(preset: Preset, options: { tenant?: string } = {}): Partial<NewConnectionInput> {
  switch (preset) {
    case 'google':
      return { kind: 'oidc', slug: 'google', displayName: 'Google', icon: 'google.svg', issuer: 'https://accounts.google.com', scopes: 'openid profile email' };
    case 'microsoft': {
      // One tenant's issuer: the multi-tenant "common" endpoint's ID tokens name each tenant as their issuer.
      const tenant = options.tenant?.trim();
      if (!tenant || !/^[A-Za-z0-9.-]{1,100}$/.test(tenant)) throw new Error('the microsoft preset needs --tenant (the directory id or domain)');
      return {
        kind: 'oidc',
        slug: 'microsoft',
        displayName: 'Microsoft',
        icon: 'microsoft.svg',
        issuer: `https://login.microsoftonline.com/${tenant}/v2.0`,
        scopes: 'openid profile email',
        // Entra ID sends no email_verified: such addresses never link an existing account (lib/federation/linking.ts).
        claimMapping: { username: 'preferred_username' },
      };
    }
    case 'github':
      return {
        kind: 'oauth2',
        slug: 'github',
        displayName: 'GitHub',
        icon: 'github.svg',
        authorizationEndpoint: 'https://github.com/login/oauth/authorize',
        tokenEndpoint: 'https://github.com/login/oauth/access_token',
        userinfoEndpoint: 'https://api.github.com/user',
        emailsEndpoint: 'https://api.github.com/user/emails',
        scopes: 'read:user user:email',
        claimMapping: { subject: 'id', username: 'login', name: 'name', email: 'email' },
      };
    case 'gitlab':
      return { kind: 'oidc', slug: 'gitlab', displayName: 'GitLab', icon: 'gitlab.svg', issuer: 'https://gitlab.com', scopes: 'openid profile email' };
  }
}
