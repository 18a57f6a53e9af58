/**
 * nginx from the system's packages (Debian: `apt-get install nginx`; .ci/run installs it) as the
 * reverse proxy in front of several Gatehouse instances, for e2e/protocol/failover.test.ts. The
 * configuration is the one README's *Deploying* shows, without TLS, plus a log line per request
 * that names the upstreams it went to, and everything nginx writes (pid, logs, temporary files)
 * in a folder of the test's own, so it runs without touching /etc/nginx, /run or /var/log.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** The nginx binary on PATH, or in the sbin folders a non-root PATH leaves out; undefined when not installed. */
export function findNginx(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), '/usr/sbin', '/usr/local/sbin', '/usr/local/nginx/sbin'];
  for (const dir of dirs) {
    const path = join(dir, 'nginx');
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not there
    }
  }
  return undefined;
}

/** The request header whose value the access log records, so a test can find the line of each of its requests. */
export const TEST_REQUEST_HEADER = 'x-test-request';

/** One access log line: the test's request id, and where nginx sent it with what answer from each upstream it tried. */
export interface ProxyLogLine {
  requestId: string;
  method: string;
  status: number;
  /** Every upstream tried, in order (`127.0.0.1:port`); a retry adds one. */
  upstreams: string[];
  /** What each of them answered (502 where nginx got no answer: refused, reset, closed). */
  upstreamStatuses: number[];
}

/**
 * The configuration: `upstreams` as `host:port`, nginx listening on 127.0.0.1:`port`, its files under `prefix`.
 * README's *Deploying* example is this `http` block with TLS on the server.
 */
export function nginxConfig(prefix: string, port: number, upstreams: string[]): string {
  return `# Written by e2e/support/nginx.ts for one test run.
daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 512; }
http {
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  log_format failover '$http_${TEST_REQUEST_HEADER.replaceAll('-', '_')} $request_method $status "$upstream_addr" "$upstream_status"';
  access_log ${prefix}/access.log failover;

  upstream gatehouse {
    # An instance that refuses or drops a connection is left out for fail_timeout, then tried again.
    ${upstreams.map((address) => `server ${address} max_fails=1 fail_timeout=5s;`).join('\n    ')}
    # No keepalive pool: a pooled connection to an instance that has just died can take a POST that
    # nginx has then "sent", which it will not pass on (below); a new connection is refused instead.
  }

  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://gatehouse;
      # Gatehouse builds every URL from ISSUER and ignores Host and X-Forwarded-Host/-Proto (README,
      # Configuration); X-Forwarded-For is what TRUST_PROXY=1 reads the client's address from.
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # On a refused or dropped connection (error) or no answer (timeout), try the other instance.
      # nginx does this for a POST only while the request has not been sent yet (no "non_idempotent"
      # here): a token or sign-in POST that reached an instance may have redeemed its code or rotated
      # its refresh token before the instance died, and sending it again would be a replay, which
      # Gatehouse answers by revoking the grant (RFC 6749 §4.1.2, §10.4).
      proxy_next_upstream error timeout;
      proxy_connect_timeout 5s;
      proxy_read_timeout 60s;
    }
  }
}
`;
}

export interface ReverseProxy {
  url: string;
  /** The access log so far, one entry per request that carried TEST_REQUEST_HEADER. */
  log(): ProxyLogLine[];
  errorLog(): string;
  stop(): Promise<void>;
}

/** Starts nginx in the foreground on 127.0.0.1:`port` in front of `upstreams`; resolves once it answers. */
export async function startNginx(nginx: string, port: number, upstreams: string[]): Promise<ReverseProxy> {
  const prefix = mkdtempSync(join(tmpdir(), 'gatehouse-nginx-'));
  // Run as root, nginx's workers switch to an unprivileged user, which must reach the temporary folders.
  chmodSync(prefix, 0o755);
  const conf = join(prefix, 'nginx.conf');
  writeFileSync(conf, nginxConfig(prefix, port, upstreams));
  let output = '';
  // -e: errors from before the configuration is read go to stderr, not to the package's /var/log/nginx.
  const child: ChildProcess = spawn(nginx, ['-p', prefix, '-c', conf, '-e', 'stderr'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const read = (file: string) => {
    try {
      return readFileSync(join(prefix, file), 'utf8');
    } catch {
      return '';
    }
  };
  const url = `http://127.0.0.1:${port}`;
  const proxy: ReverseProxy = {
    url,
    log: () =>
      read('access.log')
        .split('\n')
        .map((line) => /^(\S+) (\S+) (\d+) "([^"]*)" "([^"]*)"$/.exec(line))
        .filter((m): m is RegExpExecArray => m !== null && m[1] !== '-')
        .map((m) => ({
          requestId: m[1],
          method: m[2],
          status: Number(m[3]),
          upstreams: m[4] === '-' ? [] : m[4].split(/, | : /),
          upstreamStatuses: m[5] === '-' ? [] : m[5].split(/, | : /).map(Number),
        })),
    errorLog: () => `${output}${read('error.log')}`,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(prefix, { recursive: true, force: true });
    },
  };
  for (const deadline = Date.now() + 30_000; Date.now() < deadline && child.exitCode === null; ) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(5_000) }); // any answer: nginx listens (the upstreams may still be starting)
      return proxy;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const log = proxy.errorLog();
  await proxy.stop();
  throw new Error(`nginx did not start:\n${log}`);
}
