// Every /oauth/* endpoint (authorize, token, userinfo, jwks, introspect, revoke, logout) is oidc-provider's.
import { serverContext } from '@/lib/context';
import { handleProviderRequest } from '@/lib/oidc/mounts/next-route';

// The provider sets cookies and reads each request: never cache or prerender.
export const dynamic = 'force-dynamic';

// HEAD and OPTIONS too: otherwise Next answers them itself and CORS preflights break.
const handle = (request: Request) => handleProviderRequest(serverContext(), request);
export { handle as GET, handle as POST, handle as HEAD, handle as OPTIONS };
