import { connect, type Socket } from 'node:net';
import { type Context, Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { Admission, AdmissionConfigSchema, admissionControl } from './admission';
import { healthRoutes } from './health';
import { ServiceMetrics } from './metrics';
import { startHttpServer } from './server';
import { parsePrometheusText } from './testkit';

/** An app whose `/slow` requests (and `/stream` bodies) wait until `finish()`; probes first, then admission control. */
function gatedApp(
  config: z.input<typeof AdmissionConfigSchema>,
  holdsStream?: (c: Context) => boolean,
) {
  const metrics = new ServiceMetrics({ service: 'test', processMetrics: false });
  let open!: () => void;
  // Opened once: requests that arrive later pass at once.
  const gate = new Promise<void>((resolve) => (open = resolve));
  let started = 0;
  const app = new Hono();
  app.use(metrics.middleware());
  app.route('/', healthRoutes({ ready: () => ({ ready: true }) }));
  app.use(admissionControl({ config, metrics, ...(holdsStream ? { holdsStream } : {}) }));
  app.get('/slow', async (c) => {
    started += 1;
    await gate;
    return c.text('done');
  });
  app.get('/stream', (c) => {
    started += 1;
    let push!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (controller) => (push = controller) });
    void gate.then(() => {
      push.enqueue(new TextEncoder().encode('data: end\n\n'));
      push.close();
    });
    return c.body(body, 200, { 'content-type': 'text/event-stream' });
  });
  app.route('/', metrics.routes({ config: { enabled: true, requireKey: false }, keys: [] }));
  return {
    app,
    metrics,
    started: () => started,
    finish: () => open(),
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('admissionControl', () => {
  it('answers 503 with Retry-After beyond the line, while the probes and /metrics still answer', async () => {
    const { app, started, finish } = gatedApp({
      maxInFlight: 2,
      maxQueued: 1,
      retryAfterSeconds: 3,
    });
    const working = [app.request('/slow'), app.request('/slow')];
    const waiting = app.request('/slow');
    await tick();
    expect(started()).toBe(2);

    const refused = await app.request('/slow');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('3');
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(await refused.json()).toMatchObject({
      status: 503,
      code: 'OVERLOADED',
      detail: expect.stringContaining('2 requests in progress, 1 waiting'),
    });

    // The line is full: the probes and the scrape answer all the same, and show it.
    expect((await app.request('/health')).status).toBe(200);
    expect((await app.request('/ready')).status).toBe(200);
    const { samples } = parsePrometheusText(await (await app.request('/metrics')).text());
    const value = (name: string, labels: Record<string, string> = {}) =>
      samples.find(
        (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
      )?.value;
    expect(value('http_admission_in_flight')).toBe(2);
    expect(value('http_admission_queued')).toBe(1);
    expect(value('http_admission_refused_total', { reason: 'queue-full' })).toBe(1);

    // Once a turn ends, the waiting request gets it (first come, first served), and all finish.
    finish();
    const answers = await Promise.all([...working, waiting]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(started()).toBe(3);
  });

  it('answers 503 to a request that waited maxWaitMs without a turn', async () => {
    const { app, finish } = gatedApp({ maxInFlight: 1, maxQueued: 5, maxWaitMs: 50 });
    const working = app.request('/slow');
    await tick();
    const waited = await app.request('/slow');
    expect(waited.status).toBe(503);
    expect(waited.headers.get('retry-after')).toBe('1');
    expect((await waited.json()).detail).toMatch(/No turn came within 50 ms/);
    finish();
    expect((await working).status).toBe(200);
    // The turn was given back: the next request passes at once.
    expect((await app.request('/slow')).status).toBe(200);
  });

  it('gives the turn back once a response is ready, while its streamed body goes on', async () => {
    const { app, started, finish } = gatedApp({ maxInFlight: 1, maxQueued: 0 });
    const stream = await app.request('/stream');
    expect(stream.status).toBe(200);
    // An event stream that lives for hours must not hold a turn all that time.
    const next = app.request('/slow');
    await tick();
    expect(started()).toBe(2);
    finish();
    expect((await next).status).toBe(200);
    expect(await stream.text()).toBe('data: end\n\n');
  });

  it('holds the turn of an event stream that is the work itself until its body ends', async () => {
    const { app, finish } = gatedApp(
      { maxInFlight: 1, maxQueued: 0 },
      (c) => c.req.path === '/stream',
    );
    const stream = await app.request('/stream');
    expect(stream.status).toBe(200);
    // The headers are out, the stream is not over: its turn is still taken.
    expect((await app.request('/slow')).status).toBe(503);
    finish();
    expect(await stream.text()).toBe('data: end\n\n');
    expect((await app.request('/slow')).status).toBe(200);
  });

  it('lets every request through when disabled', async () => {
    const { app, started, finish } = gatedApp({ enabled: false, maxInFlight: 1, maxQueued: 0 });
    const all = Array.from({ length: 5 }, () => app.request('/slow'));
    await tick();
    expect(started()).toBe(5);
    finish();
    expect((await Promise.all(all)).every((r) => r.status === 200)).toBe(true);
  });

  it('refuses a bad configuration with the key named', () => {
    expect(AdmissionConfigSchema.safeParse({ maxInFlight: 0 }).success).toBe(false);
    expect(() => admissionControl({ config: { maxQueued: -1 } as never })).toThrow(/maxQueued/);
  });
});

/** The end of this turn of the event loop: immediates queued before this one have run. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('Admission', () => {
  it('starts at most maxStartsPerTurn per turn of the event loop, the others on later turns in order', async () => {
    const admission = new Admission({
      maxInFlight: 10,
      maxQueued: 10,
      maxWaitMs: 60_000,
      maxStartsPerTurn: 2,
    });
    const started: number[] = [];
    const turns = Array.from({ length: 5 }, (_, i) =>
      Promise.resolve(admission.enter()).then((turn) => {
        started.push(i);
        return turn;
      }),
    );
    expect(admission.load).toEqual({ inFlight: 2, queued: 3 });
    await nextTurn();
    expect(admission.load).toEqual({ inFlight: 4, queued: 1 });
    await nextTurn();
    expect(admission.load).toEqual({ inFlight: 5, queued: 0 });
    const released = await Promise.all(turns);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    for (const release of released) (release as () => void)();
    expect(admission.load).toEqual({ inFlight: 0, queued: 0 });
  });

  it('doubles the starts per turn while the loop turns fast (fastTurnMs), up to maxInFlight', async () => {
    const admission = new Admission({
      maxInFlight: 64,
      maxQueued: 100,
      maxWaitMs: 60_000,
      maxStartsPerTurn: 2,
      // A turn of this test is far below a minute: every turn counts as fast.
      fastTurnMs: 60_000,
    });
    const turns = Array.from({ length: 40 }, () => Promise.resolve(admission.enter()));
    const inFlight: number[] = [admission.load.inFlight];
    for (let turn = 0; turn < 5; turn++) {
      await nextTurn();
      inFlight.push(admission.load.inFlight);
    }
    // 2 at once and 2 on the first turn (the loop had not turned yet), then 4, 8 and 16 more per
    // turn, and the last 8.
    expect(inFlight).toEqual([2, 4, 8, 16, 32, 40]);
    for (const release of await Promise.all(turns)) (release as () => void)();
  });

  it('goes back to maxStartsPerTurn after a slow turn, and after the loop paused', async () => {
    const admission = new Admission({
      maxInFlight: 64,
      maxQueued: 100,
      maxWaitMs: 60_000,
      maxStartsPerTurn: 2,
      fastTurnMs: 20,
    });
    const turns = Array.from({ length: 40 }, () => Promise.resolve(admission.enter()));
    await nextTurn();
    await nextTurn();
    expect(admission.load.inFlight).toBe(2 + 2 + 4);
    // A turn that takes longer than fastTurnMs (a burst of CPU-bound work started in it).
    const busyUntil = performance.now() + 40;
    while (performance.now() < busyUntil);
    await nextTurn();
    expect(admission.load.inFlight).toBe(2 + 2 + 4 + 2);
    for (const release of await Promise.all(turns.slice(0, 16))) (release as () => void)();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // After a pause, a new burst starts maxStartsPerTurn at once, whatever the busy spell allowed.
    const before = admission.load.inFlight;
    const burst = Array.from({ length: 5 }, () => admission.enter());
    expect(admission.load.inFlight - before).toBeLessThanOrEqual(2);
    for (const release of await Promise.all([...turns.slice(16), ...burst]))
      (release as () => void)();
  });

  it('gives a released turn to the first waiter on the next turn of the loop, not inside the release', async () => {
    const admission = new Admission({ maxInFlight: 1, maxQueued: 10, maxWaitMs: 60_000 });
    const first = admission.enter() as () => void;
    const second = admission.enter();
    first();
    // A chain of synchronous work cannot start the next request before the loop reads its sockets.
    expect(admission.load).toEqual({ inFlight: 0, queued: 1 });
    // Nor does a request that arrives meanwhile jump the line.
    const third = admission.enter();
    expect(admission.load).toEqual({ inFlight: 0, queued: 2 });
    await nextTurn();
    expect(admission.load).toEqual({ inFlight: 1, queued: 1 });
    ((await second) as () => void)();
    await nextTurn();
    expect(typeof (await third)).toBe('function');
  });

  it('does not count requests that only wait for the next turn of the loop as a full line', async () => {
    const admission = new Admission({
      maxInFlight: 2,
      maxQueued: 0,
      maxWaitMs: 60_000,
      maxStartsPerTurn: 1,
    });
    expect(typeof admission.enter()).toBe('function');
    const deferred = admission.enter();
    expect(await admission.enter()).toBe('queue-full');
    expect(typeof (await deferred)).toBe('function');
  });
});

describe('admission control on a real server', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('answers /health at once while the line is full, and a client that leaves frees its place', async () => {
    const { app, finish } = gatedApp({ maxInFlight: 4, maxQueued: 4, maxWaitMs: 60_000 });
    const server = await startHttpServer(app, { port: 0 });
    closers.push(() => server.close());
    const working = Array.from({ length: 4 }, () => fetch(`${server.url}/slow`));
    const leaving = new AbortController();
    const waiting = [
      ...Array.from({ length: 3 }, () => fetch(`${server.url}/slow`)),
      fetch(`${server.url}/slow`, { signal: leaving.signal }).catch(() => undefined),
    ];
    await new Promise((resolve) => setTimeout(resolve, 100));
    const full = await fetch(`${server.url}/slow`);
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toBe('1');

    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const start = performance.now();
      const health = await fetch(`${server.url}/health`);
      expect(health.status).toBe(200);
      await health.text();
      times.push(performance.now() - start);
    }
    // Generous for a loaded test machine; under no queue at all it is about 1 ms.
    expect(Math.max(...times)).toBeLessThan(500);

    // The client that gave up leaves the line: a new request takes its place.
    leaving.abort();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const takesItsPlace = fetch(`${server.url}/slow`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    finish();
    const answers = await Promise.all([...working, ...waiting.slice(0, 3), takesItsPlace]);
    expect(answers.map((r) => r?.status)).toEqual(Array(8).fill(200));
  });

  it('reads a probe between the starts of CPU-bound requests instead of after all of them', async () => {
    const count = 20;
    const app = new Hono();
    let finished = 0;
    let sendProbe = () => {};
    app.route('/', healthRoutes({ ready: () => ({ ready: true }) }));
    app.use(admissionControl({ config: { maxStartsPerTurn: 1 } }));
    app.get('/cpu', (c) => {
      // Synchronous work, as a search is: it holds the event loop from start to answer.
      const until = performance.now() + 2;
      while (performance.now() < until) {}
      finished += 1;
      if (finished === 1) sendProbe();
      return c.text('done');
    });
    const server = await startHttpServer(app, { port: 0 });
    closers.push(() => server.close());
    const { port } = new URL(server.url);
    // Raw connections, all open before any request: the server reads the requests of one write
    // in one go, as it would from many clients at once.
    const sockets = await Promise.all(
      Array.from(
        { length: count + 1 },
        () =>
          new Promise<Socket>((resolve) => {
            const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
          }),
      ),
    );
    closers.push(async () => {
      for (const socket of sockets) socket.destroy();
    });
    // Until the server has accepted them all (its accepts and reads are separate turns).
    await new Promise((resolve) => setTimeout(resolve, 100));
    const probe = sockets.pop()!;
    const finishedWhenProbed = new Promise<number>((resolve) =>
      probe.once('data', (data) => {
        expect(data.toString()).toMatch(/^HTTP\/1\.1 200/);
        resolve(finished);
      }),
    );
    // Sent while the first request is worked on: the loop reads it on its next turn.
    sendProbe = () => probe.write('GET /health HTTP/1.1\r\nhost: test\r\n\r\n');
    const answered = sockets.map(
      (socket) => new Promise<void>((resolve) => socket.once('data', () => resolve())),
    );
    for (const socket of sockets) socket.write('GET /cpu HTTP/1.1\r\nhost: test\r\n\r\n');
    // Without a bound on starts per turn, all the requests read with the first run before it.
    expect(await finishedWhenProbed).toBeLessThan(count / 2);
    await Promise.all(answered);
    expect(finished).toBe(count);
  });
});

describe('Admission', () => {
  const far = () => Date.now() + 60_000;
  const turnOf = (entered: Awaited<ReturnType<Admission['enter']>>): (() => void) => {
    if (typeof entered === 'string') throw new Error(`refused: ${entered}`);
    return entered;
  };

  it('gives maxInFlight turns, lines up maxQueued in arrival order, refuses the rest', async () => {
    const admission = new Admission({ maxInFlight: 2, maxQueued: 2, maxWaitMs: 60_000 });
    const a = turnOf(await admission.enter(undefined, far()));
    const b = turnOf(await admission.enter(undefined, far()));
    const order: string[] = [];
    const c = Promise.resolve(admission.enter(undefined, far())).then((e) => {
      order.push('c');
      return e;
    });
    const d = Promise.resolve(admission.enter(undefined, far())).then((e) => {
      order.push('d');
      return e;
    });
    expect(admission.load).toEqual({ inFlight: 2, queued: 2 });
    expect(await admission.enter(undefined, Date.now() + 5_000)).toBe('queue-full');
    // Retry-After: seconds until the first turn taken must have ended (60 s here).
    expect(admission.secondsUntilTurnEnds(1)).toBeGreaterThan(55);
    a();
    a(); // giving a turn back twice frees one turn only
    const cTurn = turnOf(await c);
    expect(order).toEqual(['c']);
    expect(admission.load).toEqual({ inFlight: 2, queued: 1 });
    b();
    turnOf(await d)();
    cTurn();
    expect(order).toEqual(['c', 'd']);
    expect(admission.load).toEqual({ inFlight: 0, queued: 0 });
    // No turn with a deadline: the fallback.
    expect(admission.secondsUntilTurnEnds(7)).toBe(7);
  });

  it('a waiter leaves the line at its own deadline, before maxWaitMs, or when its client goes away', async () => {
    const admission = new Admission({ maxInFlight: 1, maxQueued: 5, maxWaitMs: 60_000 });
    turnOf(await admission.enter(undefined, far()));
    const late = admission.enter(undefined, Date.now() + 20);
    const controller = new AbortController();
    const gone = admission.enter(controller.signal, far());
    controller.abort();
    expect(await gone).toBe('aborted');
    expect(await late).toBe('timeout');
    expect(admission.load).toEqual({ inFlight: 1, queued: 0 });
    expect(await admission.enter(AbortSignal.abort(), far())).toBe('aborted');
  });
});
