// SCIM 2.0 (RFC 7644) for provisioning clients, when SCIM=on (lib/surfaces/scim/route.ts); a 404 otherwise.
import { scimRoute } from '@/lib/surfaces/scim/route';

export const dynamic = 'force-dynamic';

export { scimRoute as GET, scimRoute as POST, scimRoute as PUT, scimRoute as PATCH, scimRoute as DELETE };
