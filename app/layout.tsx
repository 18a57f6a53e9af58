import type { Metadata } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Gatehouse', template: '%s · Gatehouse' },
  description: 'Gatehouse, an OpenID Connect identity provider',
  robots: { index: false, follow: false },
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request: Next puts the request's CSP nonce (proxy.ts)
  // on its scripts only while rendering, so a page prerendered at build time would
  // carry scripts without it, and the browser would refuse them.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">{children}</body>
    </html>
  );
}
