// BRAND_LOGO_FILE, served at the fixed path the pages use (lib/config/brand.ts LOGO_FILE_PATH).
import { serverLogoFile } from '@/lib/config/brand-logo';
import { env } from '@/lib/config/env';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  const path = env().BRAND_LOGO_FILE;
  if (!path) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });
  const logo = await serverLogoFile(path);
  return new Response(new Uint8Array(logo.bytes), {
    headers: {
      'content-type': logo.type,
      'cache-control': 'public, max-age=3600',
      // Opened on its own, an SVG is a document: it may run nothing and load nothing.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    },
  });
}
