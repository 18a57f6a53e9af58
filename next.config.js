/** @type {import('next').NextConfig} */
const nextConfig = {
  // Loaded by Node as they are, not bundled: oidc-provider keeps module-level
  // state and the database drivers are native or Wasm.
  serverExternalPackages: ['oidc-provider', 'better-sqlite3', '@prisma/adapter-better-sqlite3', '@prisma/adapter-pg', 'pg', '@node-rs/argon2', '@prisma/schema-engine-wasm'],
  poweredByHeader: false,
  // forbidden() and app/forbidden.tsx: the admin portal answers non-admins with a real 403 page.
  experimental: { authInterrupts: true },
  reactStrictMode: true,
  // The oidc-provider routes carry their own headers; pages get conservative ones.
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          // same-origin, not no-referrer: under no-referrer browsers send `Origin: null`
          // on our own form posts, which the interaction routes' Origin check refuses.
          // Other origins (the client's redirect_uri) still get no Referer.
          { key: 'Referrer-Policy', value: 'same-origin' },
          { key: 'X-Frame-Options', value: 'DENY' },
        ],
      },
    ];
  },
};

export default nextConfig;
