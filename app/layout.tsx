import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { brand, brandCss } from '@/lib/config/brand';
import { env } from '@/lib/config/env';
import { pageLocale } from '@/lib/surfaces/locale';
import { timeZoneScript } from '@/lib/i18n/time-zone';
import './globals.css';

export function generateMetadata(): Metadata {
  const { name } = brand();
  return {
    title: { default: name, template: `%s · ${name}` },
    description: `${name}: sign in`,
    robots: { index: false, follow: false },
    // public/favicon.svg: the gate mark; browsers without SVG icons fall back to /favicon.ico, which is not there.
    icons: { icon: [{ url: '/favicon.svg', type: 'image/svg+xml' }] },
  };
}

// The pages follow the browser's colour scheme (app/globals.css); this tells the browser before the CSS arrives.
export const viewport: Viewport = { colorScheme: 'light dark' };

/** The request's CSP nonce, which proxy.ts put in the request's own policy header. */
function nonceOf(policy: string | null): string | undefined {
  return policy ? /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1] : undefined;
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request: Next puts the request's CSP nonce (proxy.ts)
  // on its scripts only while rendering, so a page prerendered at build time would
  // carry scripts without it, and the browser would refuse them.
  await connection();
  const nonce = nonceOf((await headers()).get('content-security-policy'));
  return (
    <html lang={await pageLocale()}>
      <head>
        {/* The brand's accent for both schemes (lib/config/brand.ts): validated colours only, allowed by the page's nonce. */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: CSS built from validated #rrggbb values, no input from requests */}
        <style nonce={nonce} dangerouslySetInnerHTML={{ __html: brandCss(brand()) }} />
        {/* The browser's time zone for the next page's times (lib/i18n/time-zone.ts); without JavaScript they stay in UTC and say so. */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a fixed script from our own source, allowed by the page's nonce */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: timeZoneScript(env().ISSUER.startsWith('https:')) }} />
      </head>
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">{children}</body>
    </html>
  );
}
