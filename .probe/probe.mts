import { startMailSink } from '/work/wt-i21-misc/e2e/support/mail-sink.ts';
import { startServer } from '/work/wt-i21-misc/e2e/support/server.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const sink = await startMailSink();
const dir = mkdtempSync(join(tmpdir(), 'i21probe-'));
const server = await startServer(
  { DATABASE_URL: `file:${join(dir, 'p.db')}`, SMTP_URL: sink.smtpUrl, GATEHOUSE_DIST_DIR: '.next-test', NODE_ENV: 'production', METRICS_PORT: '' },
  { mount: 'server' },
);
const page = await (await fetch(`${server.url}/password-reset`)).text();
const form = /<form[^>]*>([\s\S]*?name="identifier"[\s\S]*?)<\/form>/.exec(page);
console.log(form?.[0].slice(0, 3000));
const body = new FormData();
for (const [, name, value] of form![1].matchAll(/<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?/g))
  body.append(
    name,
    (value ?? '')
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'")
      .replace(/&amp;/g, '&'),
  );
body.append('identifier', 'someone');
const r = await fetch(`${server.url}/password-reset`, { method: 'POST', body, headers: { origin: server.url }, redirect: 'manual' });
const html = await r.text();
console.log(r.status, html.includes('If an account has'), html.length);
console.log(
  html
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .slice(0, 1500),
);
await server.stop();
await sink.close();
