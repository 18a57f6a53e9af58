import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AppContext } from '../context.ts';
import { memoryLog } from '../ops/log.ts';
import type { ServerMount } from '../oidc/mounts/node.ts';
import { handOver, type ServerHandover } from './handover.ts';
import { runSteps } from './start.ts';
import type { StartStep } from './steps.ts';

/** The context as far as the runner reads it: its log. */
function fakeContext() {
  const { log, lines } = memoryLog('debug');
  return { ctx: { log } as unknown as AppContext, lines };
}

const handle: ServerMount = (_req, _res, next) => next();

/** What scripts/server.mjs puts on globalThis before Next runs the start-up (lib/start/handover.ts). */
function waitingServer(): Promise<ServerHandover> {
  const slot = Symbol.for('gatehouse.handover');
  const global = globalThis as Record<symbol, unknown>;
  return new Promise<ServerHandover>((resolve, reject) => {
    global[slot] = { resolve, reject };
  }).finally(() => delete global[slot]);
}

test('the steps run in order, each logged by name; close runs what they left last-first, on past a failure, and then throws it', async () => {
  const { ctx, lines } = fakeContext();
  const order: string[] = [];
  const step = (name: string, run: StartStep['run'] = () => void order.push(name)): StartStep => ({ name, run });
  const started = await runSteps(
    () => ctx,
    [
      step('first', (s) => {
        s.log = s.ctx.log;
        s.onClose(() => void order.push('close first'));
      }),
      step('second', async (s) => {
        await new Promise((resolve) => setImmediate(resolve));
        order.push('second');
        s.onClose(() => {
          order.push('close second');
          throw new Error('did not close');
        });
      }),
      step('mount', (s) => {
        s.handle = handle;
        s.onClose(() => void order.push('close mount'));
      }),
    ],
  );
  assert.equal(started.handle, handle);
  assert.deepEqual(order, ['second']);
  assert.deepEqual(
    lines.filter((line) => line.msg === `start-up step ${line.step} done`).map((line) => line.step),
    ['first', 'second', 'mount'],
  );
  await assert.rejects(started.close(), /did not close/);
  assert.deepEqual(order, ['second', 'close mount', 'close second', 'close first'], 'every closer ran, the last added first');
  await assert.rejects(started.close(), /did not close/, 'a second close is the first one');
  assert.equal(order.length, 4, 'nothing closes twice');
});

test('a failing step stops the start-up: later steps do not run, the fatal line names the step, a waiting custom server is told', async () => {
  const { ctx, lines } = fakeContext();
  const server = waitingServer();
  let later = false;
  const steps: StartStep[] = [
    { name: 'context', run: (s) => void (s.log = s.ctx.log) },
    {
      name: 'database',
      run: () => {
        throw new Error('no such database');
      },
    },
    { name: 'later', run: () => void (later = true) },
  ];
  await assert.rejects(
    runSteps(() => ctx, steps),
    /no such database/,
  );
  await assert.rejects(server, /no such database/, 'the custom server exits instead of waiting');
  assert.equal(later, false);
  const fatal = lines.find((line) => line.level === 60);
  assert.equal(fatal?.msg, 'start-up failed');
  assert.equal(fatal?.step, 'database');
});

test('the hand-over gives a waiting custom server the handle, the log and a close that is the start-up’s', async () => {
  const { ctx } = fakeContext();
  const server = waitingServer();
  let closed = 0;
  const started = await runSteps(
    () => ctx,
    [
      { name: 'context', run: (s) => s.onClose(() => void closed++) },
      { name: 'mount', run: (s) => void (s.handle = handle) },
      { name: 'hand-over', run: (s) => handOver({ handle: s.handle!, log: s.ctx.log, close: () => s.close(), collectMetrics: async () => [] }) },
    ],
  );
  const handover = await server;
  assert.equal(handover.handle, handle);
  assert.equal(handover.log, ctx.log);
  await handover.close();
  await started.close();
  assert.equal(closed, 1, 'closed once, whoever asks');
});
