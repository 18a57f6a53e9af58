// Every /oauth/* endpoint (authorize, token, userinfo, jwks, introspect, revoke, logout) is oidc-provider's.
import { handleProviderRequest } from '@/lib/oidc/mounts/next-route';

// The provider sets cookies and reads each request: never cache or prerender.
export const dynamic = 'force-dynamic';

// HEAD and OPTIONS too: otherwise Next answers them itself and CORS preflights break.
export { handleProviderRequest as GET, handleProviderRequest as POST, handleProviderRequest as HEAD, handleProviderRequest as OPTIONS };
