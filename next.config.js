// Plain JavaScript, so the top level reads like any Next app's. The three lib files it imports have
// no imports and no syntax beyond erasable types, which Node (22.18 or newer, as `npm start` runs)
// loads as they are; Next loads this file with that Node before anything is built.
import createNextIntlPlugin from 'next-intl/plugin';
import { distDir } from './lib/config/dist-dir.ts';
import { BODY_LIMITS, LARGEST_BODY, bodyLimitRewrites, unproxiedRequests } from './lib/http/body-limits.ts';
import { STATIC_SECURITY_HEADERS, UNPROXIED_PAGE_POLICY } from './lib/http/security-headers.ts';

/** @type {import('next').NextConfig} */
const nextConfig = {
  // GATEHOUSE_DIST_DIR (lib/config/dist-dir.ts): the tests and the benchmark build beside `npm start`'s .next, never into it.
  distDir: distDir(),
  // Loaded by Node as they are, not bundled: oidc-provider keeps module-level
  // state, the database drivers are native or Wasm, and the throttle's
  // stores deep-import rate-limiter-flexible's internals.
  serverExternalPackages: [
    'oidc-provider',
    'better-sqlite3',
    '@prisma/adapter-better-sqlite3',
    '@prisma/adapter-pg',
    'pg',
    '@node-rs/argon2',
    '@prisma/schema-engine-wasm',
    'rate-limiter-flexible',
    'ioredis',
    // Loaded only when tracing is on (lib/ops/tracing-sdk.ts), from node_modules as published:
    // their `#platform` imports pick the Node build by export conditions.
    '@opentelemetry/context-async-hooks',
    '@opentelemetry/core',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/exporter-trace-otlp-proto',
    '@opentelemetry/resources',
    '@opentelemetry/sdk-trace',
  ],
  poweredByHeader: false,
  experimental: {
    // forbidden() and app/forbidden.tsx: the admin portal answers non-admins with a real 403 page.
    authInterrupts: true,
    // Next's default is 1 MB; the portal's largest form needs far less (lib/http/body-limits.ts).
    serverActions: { bodySizeLimit: BODY_LIMITS.portalForm },
    // proxy.ts sees only requests that declare at most this (its matcher); Next copies their bodies for it.
    proxyClientMaxBodySize: LARGEST_BODY,
  },
  reactStrictMode: true,
  // Static headers for everything Next serves; proxy.ts adds the page policy and HSTS,
  // which depend on the request and the configuration (this list is fixed at build time).
  async headers() {
    return [
      { source: '/:path*', headers: STATIC_SECURITY_HEADERS.map(([key, value]) => ({ key, value })) },
      // What proxy.ts does not see still answers with a policy (lib/http/security-headers.ts UNPROXIED_PAGE_POLICY).
      ...unproxiedRequests().map((rule) => ({ ...rule, headers: [{ key: 'Content-Security-Policy', value: UNPROXIED_PAGE_POLICY }] })),
    ];
  },
  // Oversized and chunked bodies for Next's own readers, refused before they are read.
  async rewrites() {
    return { beforeFiles: bodyLimitRewrites(), afterFiles: [], fallback: [] };
  },
};

// next-intl without i18n routing: lib/i18n/request.ts picks each request's language and catalog.
export default createNextIntlPlugin('./lib/i18n/request.ts')(nextConfig);
