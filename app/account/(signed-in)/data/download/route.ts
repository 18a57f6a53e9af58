// /account/data/download: the signed-in person's own data as a JSON file (lib/users/own-account.ts).
import { ownDataOf } from '@/lib/surfaces/account/own-data';
import { requireUser } from '@/lib/surfaces/portal/session';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  const user = await requireUser('/account/data');
  const data = await ownDataOf(user);
  if (!data) return new Response(null, { status: 404 });
  return new Response(`${JSON.stringify(data, null, 2)}\n`, {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="${user.username.replace(/[^A-Za-z0-9._@-]/g, '_')}-data.json"`,
      'cache-control': 'no-store',
    },
  });
}
