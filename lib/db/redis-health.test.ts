// Redis lost and back (issue 29): against a redis-server of this file's own (a free port, nothing on disk),
// stopped and started again. The log says so once each way, naming Redis; the throttle's counters go on in the
// database meanwhile; access tokens go to the table and are found there, then and after; what needs Redis fails at
// once with an error that names it. On SQLite (the counters' and the table's SQL is the same on PostgreSQL, tested in
// lib/platform/throttle.test.ts and lib/oidc/adapter.test.ts). Skipped without redis-server, except under CI=true.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { memoryLog } from '../ops/log.ts';
import { loadArtifact, removeArtifact, saveArtifact } from './artifact-store.ts';
import { closeDatabase, database, type Database } from './database.ts';
import { migrate } from './migrate.ts';
import { checkRedisAtStart, isRedisUnavailable, redisWhere } from './redis-health.ts';
import { openCounterStore, type CounterStore } from './throttle-store.ts';

const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
const skip = !hasRedisServer && process.env.CI !== 'true' ? 'redis-server is not installed (under CI=true this fails instead)' : false;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(50)) if (await check()) return;
  assert.fail(`${what}: not within ${ms} ms`);
}

function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('error', () => resolve(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      resolve(data.toString().startsWith('+PONG'));
      socket.destroy();
    });
  });
}

test('redisWhere names host and port, never a password', () => {
  assert.equal(redisWhere('redis://:s3cret@cache.internal:6380/2'), 'cache.internal:6380');
  assert.equal(redisWhere('rediss://user:pw@10.0.0.5'), '10.0.0.5:6379');
  assert.equal(redisWhere('not a url'), 'the configured REDIS_URL');
});

describe('Redis lost and back', { skip }, () => {
  let port = 0;
  let redis: ChildProcess | undefined;
  let dir = '';
  let url = '';
  let db: Database;
  let store: CounterStore;
  const { log, lines } = memoryLog('info');

  const startRedis = async () => {
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await until('redis-server answers', () => pings(port));
  };
  const stopRedis = async () => {
    const child = redis!;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  };
  const events = (name: string) => lines.filter((line) => line.event === name);

  before(async () => {
    assert.ok(hasRedisServer, 'redis-server is not installed');
    port = await freePort();
    await startRedis();
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-redis-health-'));
    url = `file:${join(dir, 'redis-health.db')}`;
    await migrate(url);
    db = database(url, { redisUrl: `redis://127.0.0.1:${port}`, log });
    store = openCounterStore(db, { redisUrl: `redis://127.0.0.1:${port}`, redisKeyPrefix: 'gatehouse-test' });
  });

  after(async () => {
    await store?.close();
    await closeDatabase(url);
    if (redis && redis.exitCode === null && redis.signalCode === null) await stopRedis();
    rmSync(dir, { recursive: true, force: true });
  });

  test('one line lost and one back, naming Redis; the counters and access tokens go on in the database; the rest fails at once', async () => {
    const redisArtifacts = db.redisArtifacts!;
    const { log: startLog, lines: startLines } = memoryLog('info');
    await checkRedisAtStart(redisArtifacts, startLog);
    assert.equal(startLines[0]?.msg, `Redis at 127.0.0.1:${port} answers`);
    const limiter = store.limiter({ keyPrefix: 'health', points: 3, duration: 3600 });
    await limiter.consume('k');
    await until('Redis up', () => redisArtifacts.health.state() === 'up');
    await saveArtifact(db, 'AccessToken', 'before-outage', { clientId: 'c', grantId: 'g1' }, Date.now() + 60_000);

    await stopRedis();
    await until('Redis down', () => redisArtifacts.health.state() === 'down');
    assert.equal(events('redis_lost').length, 1);
    const lost = events('redis_lost')[0];
    assert.equal(lost.level, 50);
    assert.equal(lost.redis, `127.0.0.1:${port}`);
    assert.match(String(lost.msg), new RegExp(`^Redis at 127\\.0\\.0\\.1:${port} is unavailable`));

    // The counters: in the database, counted from 0 there (the database holds no Redis counts to go on from), up to the limit and refused past it.
    const started = Date.now();
    for (let i = 0; i < 3; i++) await limiter.consume('k');
    await assert.rejects(limiter.consume('k'), (res: unknown) => !(res instanceof Error) && (res as { remainingPoints: number }).remainingPoints === 0);
    assert.equal((await limiter.get('k'))?.consumedPoints, 4);
    assert.ok(Date.now() - started < 5000, 'without waiting for reconnections');

    // Access tokens: into the table, found there; one kept in Redis is out of reach (inactive), not an error.
    await saveArtifact(db, 'AccessToken', 'during-outage', { clientId: 'c', grantId: 'g2' }, Date.now() + 60_000);
    assert.equal((await loadArtifact(db, 'AccessToken', 'during-outage', Date.now()))?.grantId, 'g2');
    assert.equal(await loadArtifact(db, 'AccessToken', 'before-outage', Date.now()), undefined);
    // Interactions and codes need Redis: a RedisUnavailable naming it, at once.
    const refused = Date.now();
    await assert.rejects(saveArtifact(db, 'Interaction', 'i1', { clientId: 'c' }, Date.now() + 60_000), (error: unknown) => {
      assert.ok(isRedisUnavailable(error));
      assert.match((error as Error).message, new RegExp(`^Redis at 127\\.0\\.0\\.1:${port} is unavailable`));
      return true;
    });
    assert.ok(Date.now() - refused < 1000, 'refused at once');
    // A revocation must reach Redis too, or the token would come back with it.
    await assert.rejects(removeArtifact(db, 'AccessToken', 'before-outage'), (error: unknown) => isRedisUnavailable(error));
    await assert.rejects(redisArtifacts.ping(500), (error: unknown) => isRedisUnavailable(error));
    assert.equal(events('redis_lost').length, 1, 'still one line, however many failures');

    await startRedis();
    await until('Redis up again', () => redisArtifacts.health.state() === 'up');
    const back = events('redis_back');
    assert.equal(back.length, 1);
    assert.equal(back[0].level, 30);
    assert.equal(back[0].msg, `Redis at 127.0.0.1:${port} is back`);
    // Redis counts again (it was restarted empty); the token issued during the outage is still found, and revoked from both.
    await limiter.consume('k2');
    assert.equal((await limiter.get('k2'))?.consumedPoints, 1);
    assert.equal((await loadArtifact(db, 'AccessToken', 'during-outage', Date.now()))?.grantId, 'g2');
    await removeArtifact(db, 'AccessToken', 'during-outage');
    assert.equal(await loadArtifact(db, 'AccessToken', 'during-outage', Date.now()), undefined);
    await saveArtifact(db, 'Interaction', 'i2', { clientId: 'c' }, Date.now() + 60_000);
    assert.equal((await loadArtifact(db, 'Interaction', 'i2', Date.now()))?.clientId, 'c');
    assert.equal(events('redis_lost').length, 1);
    assert.equal(events('redis_back').length, 1);
  });

  test('a start with Redis silent warns, naming it, and goes on', async () => {
    const silentPort = await freePort();
    const { openRedisArtifacts } = await import('./redis-artifacts.ts');
    const { log: startLog, lines: startLines } = memoryLog('info');
    const silent = openRedisArtifacts(`redis://127.0.0.1:${silentPort}`, async () => 'ns', { log: () => startLog });
    try {
      await checkRedisAtStart(silent, startLog);
      const warning = startLines.find((line) => line.event === 'redis_unreachable_at_start');
      assert.ok(warning, JSON.stringify(startLines));
      assert.equal(warning.level, 40);
      assert.match(String(warning.msg), new RegExp(`^REDIS_URL is set but Redis at 127\\.0\\.0\\.1:${silentPort} does not answer: starting without it`));
      await until('the lost line', () => startLines.some((line) => line.event === 'redis_lost'));
    } finally {
      await silent.close();
    }
  });
});
