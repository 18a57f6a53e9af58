// Discovery (/.well-known/openid-configuration) is served by oidc-provider.
import { handleProviderRequest } from '@/lib/oidc/mounts/next-route';

export const dynamic = 'force-dynamic';

export { handleProviderRequest as GET, handleProviderRequest as HEAD, handleProviderRequest as OPTIONS };
