// next-auth's endpoints for the admin portal (sign-in start, callback from Gatehouse, session, CSRF).
import NextAuth from 'next-auth';
import type { NextRequest } from 'next/server';
import { portalAuthOptions } from '@/lib/surfaces/portal/auth';

export const dynamic = 'force-dynamic';

// The options are built per process on first use: the build has no database to read the secrets from.
async function handler(request: NextRequest, context: { params: Promise<{ nextauth: string[] }> }): Promise<Response> {
  return NextAuth(await portalAuthOptions())(request, context);
}

export { handler as GET, handler as POST };
