/**
 * CPU time spent serving a row, per server: the server's process tree, its
 * PostgreSQL backends and Redis, read from /proc (utime + stime) before and after
 * each sample. Unlike req/s it barely moves when other work loads the machine, so
 * CPU per request compares Gatehouse with the baseline (whose store is its own
 * memory) on a shared machine. Linux only; elsewhere every figure is 0.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import pg from 'pg';
import { processTree } from './servers.ts';

const TICKS_PER_SECOND = 100; // getconf CLK_TCK on Linux

/** utime + stime of a process, ms; 0 when it is gone. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The socket inodes a process holds. */
function socketInodes(pid: number): string[] {
  const inodes: string[] = [];
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (match) inodes.push(match[1]);
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    // gone
  }
  return inodes;
}

/** inode → the TCP connection's local and remote ports, from the kernel's tables (readConnections). */
let connections = new Map<string, { local: number; remote: number }>();

/** The local ports of a process's TCP connections to `remotePort`. */
const portsTo = (pid: number, remotePort: number) =>
  socketInodes(pid).flatMap((inode) => {
    const connection = connections.get(inode);
    return connection && connection.remote === remotePort ? [connection.local] : [];
  });

/** Reads the kernel's TCP tables once per snapshot: inode → ports. */
function readConnections() {
  connections = new Map();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const parts = line.trim().split(/\s+/);
      if (parts.length < 10) continue;
      const local = Number.parseInt(parts[1].split(':')[1], 16);
      const remote = Number.parseInt(parts[2].split(':')[1], 16);
      connections.set(parts[9], { local, remote });
    }
  }
}

function redisServerPid(): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'redis-server') return Number(entry);
    } catch {
      // exited meanwhile
    }
  }
  return undefined;
}

export interface CpuSnapshot {
  server: number;
  database: Map<number, number>;
  redis: number;
}

export interface CpuSpent {
  /** ms of CPU in the server's process tree. */
  server: number;
  /** ms in the PostgreSQL backends serving its connections. */
  database: number;
  /** ms in redis-server (shared: any other client's work shows here too). */
  redis: number;
}

/**
 * Measures what serving costs, per server: the process trees of its instances (one, or several
 * behind one issuer), with a PostgreSQL URL their backends, and Redis once.
 */
export function cpuMeter(postgresUrl?: string) {
  const client = postgresUrl ? new pg.Client({ connectionString: postgresUrl }) : undefined;
  const connected = client?.connect();
  const redisPid = redisServerPid();

  async function backends(processes: number[]): Promise<number[]> {
    if (!client) return [];
    await connected;
    readConnections();
    const ports = [...new Set(processes.flatMap((p) => portsTo(p, 5432)))];
    if (ports.length === 0) return [];
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE client_port = ANY($1::int[])', [ports]);
    return rows.map((r) => r.pid);
  }

  return {
    async snapshot(pids: number[], usesStores: boolean): Promise<CpuSnapshot> {
      const processes = pids.flatMap((pid) => processTree(pid));
      const server = processes.reduce((sum, p) => sum + cpuMs(p), 0);
      const database = new Map((usesStores ? await backends(processes) : []).map((p) => [p, cpuMs(p)] as const));
      return { server, database, redis: usesStores && redisPid ? cpuMs(redisPid) : 0 };
    },
    async spent(pids: number[], before: CpuSnapshot, usesStores: boolean): Promise<CpuSpent> {
      const after = await this.snapshot(pids, usesStores);
      let database = 0;
      for (const [backend, ms] of after.database) database += ms - (before.database.get(backend) ?? 0);
      return { server: after.server - before.server, database, redis: after.redis - before.redis };
    },
    async close() {
      await connected;
      await client?.end();
    },
  };
}
