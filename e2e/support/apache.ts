/**
 * Apache httpd with mod_auth_openidc from the system's packages (Debian: `apt-get install apache2
 * libapache2-mod-auth-openidc`; .ci/run installs them) as a relying party protecting a folder with
 * `Require claim`, for e2e/protocol/mod-auth-openidc.test.ts. Its own configuration, port and folder
 * (pid, logs, runtime files, the page it protects), started in the foreground: nothing under /etc/apache2.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';
import { accessSync, chmodSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MODULES = '/usr/lib/apache2/modules';

/** The apache2 binary and mod_auth_openidc, or undefined when either is not installed. */
export function findApacheWithOpenidc(): { httpd: string; modules: string } | undefined {
  for (const httpd of ['/usr/sbin/apache2', '/usr/sbin/httpd']) {
    try {
      accessSync(httpd, constants.X_OK);
      accessSync(join(MODULES, 'mod_auth_openidc.so'), constants.R_OK);
      return { httpd, modules: MODULES };
    } catch {
      // not this one
    }
  }
  return undefined;
}

export interface ProtectedSite {
  /** http://127.0.0.1:port: the site; `/protected/page.txt` is behind Gatehouse. */
  url: string;
  redirectUri: string;
  errorLog(): string;
  /** Stops httpd, keeping its folder: with `fileCache`, its sessions survive until `up`. */
  down(): Promise<void>;
  /** Starts httpd again with the same configuration (the same passphrase, so the same cookies are good). */
  up(): Promise<void>;
  stop(): Promise<void>;
}

export interface RelyingPartySettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The Require line of the protected folder, e.g. `claim groups:ops` or `valid-user`. */
  require: string;
  scope: string;
  port: number;
  /** Sessions in files under the site's folder (OIDCCacheType file), not in shared memory: they outlive a restart. */
  fileCache?: boolean;
}

/** The site's redirect URI (register it with the client first): under the protected folder, as mod_auth_openidc wants. */
export const redirectUriFor = (port: number) => `http://127.0.0.1:${port}/protected/redirect_uri`;

export function apacheConfig(prefix: string, modules: string, rp: RelyingPartySettings): string {
  const load = (name: string, file: string) => `LoadModule ${name}_module ${modules}/${file}`;
  return `# Written by e2e/support/apache.ts for one test run.
ServerName 127.0.0.1
Listen 127.0.0.1:${rp.port}
PidFile ${prefix}/httpd.pid
DefaultRuntimeDir ${prefix}
Mutex file:${prefix} default
ErrorLog ${prefix}/error.log
LogLevel warn auth_openidc:info
User www-data
Group www-data
${load('mpm_event', 'mod_mpm_event.so')}
${load('authz_core', 'mod_authz_core.so')}
${load('authn_core', 'mod_authn_core.so')}
${load('authz_user', 'mod_authz_user.so')}
${load('auth_openidc', 'mod_auth_openidc.so')}
DocumentRoot ${prefix}/htdocs

OIDCProviderMetadataURL ${rp.issuer}/.well-known/openid-configuration
OIDCClientID ${rp.clientId}
OIDCClientSecret ${rp.clientSecret}
OIDCRedirectURI ${redirectUriFor(rp.port)}
OIDCCryptoPassphrase ${randomBytes(24).toString('hex')}
OIDCScope "${rp.scope}"
${rp.fileCache ? `OIDCCacheType file\nOIDCCacheDir ${prefix}/cache\n` : ''}# Gatehouse wants PKCE of every client (RFC 9700 §2.1.1).
OIDCPKCEMethod S256
# Cookies over plain http on a loopback address, for this test only.
OIDCCookieSameSite On
# An authenticated person the Require line refuses gets a 403, not another sign-in.
OIDCUnAutzAction 403

<Location /protected/>
  AuthType openid-connect
  Require ${rp.require}
</Location>
`;
}

/** Starts apache2 in the foreground with `rp`; resolves once it answers. */
export async function startProtectedSite(found: { httpd: string; modules: string }, rp: RelyingPartySettings): Promise<ProtectedSite> {
  const prefix = mkdtempSync(join(tmpdir(), 'gatehouse-apache-'));
  // Run as root, httpd's workers switch to www-data, which must read the page and write the runtime files.
  chmodSync(prefix, 0o777);
  mkdirSync(join(prefix, 'htdocs', 'protected'), { recursive: true });
  writeFileSync(join(prefix, 'htdocs', 'protected', 'page.txt'), 'members only\n');
  chmodSync(join(prefix, 'htdocs'), 0o755);
  chmodSync(join(prefix, 'htdocs', 'protected'), 0o755);
  const conf = join(prefix, 'httpd.conf');
  if (rp.fileCache) {
    mkdirSync(join(prefix, 'cache'));
    chmodSync(join(prefix, 'cache'), 0o777);
  }
  writeFileSync(conf, apacheConfig(prefix, found.modules, rp));
  let output = '';
  let child: ChildProcess;
  let exited: Promise<void>;
  const spawnHttpd = () => {
    child = spawn(found.httpd, ['-f', conf, '-DFOREGROUND'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, APACHE_RUN_DIR: prefix },
    });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  };
  spawnHttpd();
  const url = `http://127.0.0.1:${rp.port}`;
  const errorLog = () => {
    let file = '';
    try {
      file = readFileSync(join(prefix, 'error.log'), 'utf8');
    } catch {
      // not written yet
    }
    return `${output}${file}`;
  };
  const down = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const stop = async () => {
    await down();
    rmSync(prefix, { recursive: true, force: true });
  };
  const answering = async () => {
    for (let i = 0; i < 100; i++) {
      if (child.exitCode !== null) break;
      const up = await fetch(`${url}/`, { redirect: 'manual' }).then(
        () => true,
        () => false,
      );
      if (up) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  };
  const up = async () => {
    await down();
    spawnHttpd();
    if (!(await answering())) throw new Error(`apache2 did not start again:\n${errorLog()}`);
  };
  if (await answering()) return { url, redirectUri: redirectUriFor(rp.port), errorLog, down, up, stop };
  const log = errorLog();
  await stop();
  throw new Error(`apache2 did not start:\n${log}`);
}

/**
 * A page load as a browser makes it, for TestBrowser's `send`: mod_auth_openidc sends only a browser's navigation to
 * sign in and answers anything else 401, judging by Sec-Fetch-Mode and Accept, and fetch always says
 * `Sec-Fetch-Mode: cors`. So plain node:http, with a browser's navigation headers.
 */
export const navigation: typeof fetch = (input, init = {}) =>
  new Promise((resolve, reject) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = { accept: 'text/html', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', ...Object.fromEntries(new Headers(init.headers)) };
    const request = httpRequest(url, { method: init.method ?? 'GET', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) answer.append(name, one);
        }
        const status = response.statusCode ?? 500;
        resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: answer }));
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    if (typeof init.body === 'string') request.write(init.body);
    request.end();
  });
