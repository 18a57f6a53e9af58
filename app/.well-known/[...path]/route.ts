// Discovery (/.well-known/openid-configuration) is served by oidc-provider.
import { serverContext } from '@/lib/context';
import { handleProviderRequest } from '@/lib/oidc/mounts/next-route';

export const dynamic = 'force-dynamic';

const handle = (request: Request) => handleProviderRequest(serverContext(), request);
export { handle as GET, handle as POST, handle as HEAD, handle as OPTIONS };
