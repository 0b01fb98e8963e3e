import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { parseConfig } from './config';
import type { ServiceMetrics } from './metrics';
import { problemResponse } from './problem';
import { TurnCounter } from './turn-counter';

/**
 * Admission control of an app: how many requests it works on at once, how many may wait for a
 * turn and for how long. One schema for every app's `admission` configuration section; every key
 * is optional and documented in the apps' READMEs.
 *
 * @example
 * AdmissionConfigSchema.parse({}).maxInFlight; // 32
 */
export const AdmissionConfigSchema = z.strictObject({
  /** Off: every request is worked on at once (the event loop is the only queue). */
  enabled: z.boolean().default(true),
  /** Requests worked on at once; the others wait in line (first come, first served). */
  maxInFlight: z.number().int().min(1).max(100_000).default(32),
  /**
   * Requests that start per turn of the event loop; the others start on a later turn, after the
   * loop has read its sockets again, so a probe waits behind this many starts at most instead of
   * behind every request that arrived with it (work that is CPU, such as a search, runs to its
   * first wait for I/O as soon as it starts).
   */
  maxStartsPerTurn: z.number().int().min(1).max(100_000).default(4),
  /**
   * While the event loop turns within this many milliseconds, the starts per turn double on each
   * turn (up to `maxInFlight`); the first slower turn sets them back to `maxStartsPerTurn`. Cheap
   * requests (submissions) then start together and share a group commit, while expensive ones
   * (searches) still start a few per turn. 0: always `maxStartsPerTurn`.
   */
  fastTurnMs: z.number().min(0).max(1_000).default(5),
  /** Requests waiting at most; beyond that a request is answered 503 at once. */
  maxQueued: z.number().int().min(0).max(1_000_000).default(512),
  /** Longest wait for a turn; then 503. */
  maxWaitMs: z.number().int().min(1).max(600_000).default(10_000),
  /** `Retry-After` of a 503 answer, in seconds. */
  retryAfterSeconds: z.number().int().min(1).max(3_600).default(1),
});
/** Validated admission control. */
export type AdmissionConfig = z.output<typeof AdmissionConfigSchema>;

/** Why {@link Admission.enter} refused a request. */
export type AdmissionRefusal = 'queue-full' | 'timeout' | 'aborted';

/** The paths that never wait: probes and the metrics scrape (an operator sees the overload). */
export const ADMISSION_EXEMPT_PATHS: readonly string[] = ['/health', '/ready', '/metrics'];

interface Waiter {
  admit: () => void;
}

/**
 * A bounded number of turns and a bounded line of waiters. `enter` answers a `release` to call
 * once the work is done, or why it was refused. Work with a deadline of its own (a query's
 * timeout) waits at most until then, and a full line can say when the first turn must be free
 * ({@link Admission.secondsUntilTurnEnds}).
 *
 * @example
 * const admission = new Admission({ maxInFlight: 2, maxQueued: 10, maxWaitMs: 1000 });
 * const turn = await admission.enter();
 * if (typeof turn === 'string') return refuse(turn);
 * try { await work(); } finally { turn(); }
 */
export class Admission {
  readonly #config: Pick<AdmissionConfig, 'maxInFlight' | 'maxQueued' | 'maxWaitMs'> & {
    maxStartsPerTurn: number;
    fastTurnMs: number;
  };
  /** Starts allowed in this turn of the loop (see `fastTurnMs`). */
  #startsAllowed: number;
  /** When the last turn began (its check phase, `performance.now()`). */
  #lastTurnAt = Number.NEGATIVE_INFINITY;
  /** The deadline of each turn taken now (epoch ms; Infinity: none). */
  readonly #turns = new Set<{ deadline: number }>();
  readonly #queue: Waiter[] = [];
  /** Turns given in this turn of the loop; the next turn admits waiters (first come first served). */
  readonly #starts = new TurnCounter(() => {
    this.#paceStarts();
    while (
      this.#queue.length > 0 &&
      this.#turns.size < this.#config.maxInFlight &&
      this.#starts.count < this.#startsAllowed
    ) {
      this.#queue.shift()!.admit();
    }
  });

  constructor(
    config: Pick<AdmissionConfig, 'maxInFlight' | 'maxQueued' | 'maxWaitMs'> &
      Partial<Pick<AdmissionConfig, 'maxStartsPerTurn' | 'fastTurnMs'>>,
  ) {
    const maxStartsPerTurn = config.maxStartsPerTurn ?? config.maxInFlight;
    this.#config = { ...config, maxStartsPerTurn, fastTurnMs: config.fastTurnMs ?? 0 };
    this.#startsAllowed = maxStartsPerTurn;
  }

  /**
   * Sets the starts of the turn beginning now from the length of the one that ended: a fast turn
   * (within `fastTurnMs`) doubles them, up to `maxInFlight`; a slow one, or a pause of the loop
   * without starts, sets them back to `maxStartsPerTurn`. A probe read in the next turn then
   * waits behind one fast turn, or behind `maxStartsPerTurn` starts.
   */
  #paceStarts(): void {
    const now = performance.now();
    const turnMs = now - this.#lastTurnAt;
    this.#lastTurnAt = now;
    const { maxStartsPerTurn, maxInFlight, fastTurnMs } = this.#config;
    this.#startsAllowed =
      turnMs <= fastTurnMs ? Math.min(this.#startsAllowed * 2, maxInFlight) : maxStartsPerTurn;
  }

  /** Whether a request would get a turn at once. */
  get free(): boolean {
    return (
      this.#turns.size < this.#config.maxInFlight &&
      this.#queue.length === 0 &&
      this.#starts.count < this.#startsAllowed
    );
  }

  /** Requests worked on and waiting now. */
  get load(): { inFlight: number; queued: number } {
    return { inFlight: this.#turns.size, queued: this.#queue.length };
  }

  /** Seconds (at least 1) until the first turn taken with a deadline must have ended: a Retry-After. */
  secondsUntilTurnEnds(fallback: number): number {
    let earliest = Number.POSITIVE_INFINITY;
    for (const turn of this.#turns) earliest = Math.min(earliest, turn.deadline);
    const seconds = Math.ceil((earliest - Date.now()) / 1000);
    return Number.isFinite(seconds) ? Math.max(1, seconds) : fallback;
  }

  /**
   * A turn now, after a wait, or a refusal (line full, waited too long, client gone). A `deadline`
   * (epoch ms) ends the wait sooner than `maxWaitMs` and is remembered for the turn.
   */
  enter(
    signal?: AbortSignal,
    deadline = Number.POSITIVE_INFINITY,
  ): Promise<(() => void) | AdmissionRefusal> | (() => void) {
    // The first start since the loop paused (no start for longer than a fast turn): one burst of
    // expensive requests after a quiet spell starts `maxStartsPerTurn` at a time, not as many as
    // the last busy spell of cheap ones did.
    if (this.#starts.count === 0 && performance.now() - this.#lastTurnAt > this.#config.fastTurnMs)
      this.#startsAllowed = this.#config.maxStartsPerTurn;
    if (this.free) return this.#turn(deadline);
    if (signal?.aborted) return Promise.resolve('aborted');
    // Waiters that only wait for the next turn of the loop (a turn is free) do not fill the line.
    if (
      this.#queue.length >= this.#config.maxQueued &&
      this.#turns.size + this.#queue.length >= this.#config.maxInFlight
    )
      return Promise.resolve('queue-full');
    return new Promise((resolve) => {
      const leave = (refusal: AdmissionRefusal) => {
        const index = this.#queue.indexOf(waiter);
        if (index >= 0) this.#queue.splice(index, 1);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(refusal);
      };
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(this.#turn(deadline));
        },
      };
      const onAbort = () => leave('aborted');
      const wait = Math.max(0, Math.min(this.#config.maxWaitMs, deadline - Date.now()));
      const timer = setTimeout(() => leave('timeout'), wait);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
      this.#starts.nextTurn();
    });
  }

  #turn(deadline: number): () => void {
    const turn = { deadline };
    this.#turns.add(turn);
    // The next turn of the loop resets the count (and admits waiters if any).
    this.#starts.add();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#turns.delete(turn);
      // Waiters get the free turns in the next check phase, never here: a release in a chain of
      // synchronous work would otherwise start the next request before the loop reads its sockets.
      // No request that arrives meanwhile jumps the line (`free` is false while any wait).
      if (this.#queue.length > 0) this.#starts.nextTurn();
    };
  }
}

/** Options of {@link admissionControl}. */
export interface AdmissionControlOptions {
  config?: z.input<typeof AdmissionConfigSchema> | AdmissionConfig | undefined;
  /** Paths that never wait (default {@link ADMISSION_EXEMPT_PATHS}). */
  exempt?: readonly string[];
  metrics?: ServiceMetrics | undefined;
  /** Whether this request's event stream (`text/event-stream`) keeps its turn until it ends. */
  holdsStream?: (c: Context) => boolean;
}

/**
 * Admission control as a middleware: at most `maxInFlight` requests are worked on at once and at
 * most `maxStartsPerTurn` start per turn of the event loop (the rest start on later turns, so the
 * probes, read on every turn, wait behind a few starts only), up to
 * `maxQueued` more wait (each at most `maxWaitMs`), and beyond that a request is answered at once
 * with 503 and `Retry-After`, so that a flood queues in a bounded line instead of on the event
 * loop, where it would delay everything (the probes included). A turn lasts until the response
 * is ready: a streamed body (an event stream that lives for hours) goes on outside it, unless
 * `holdsStream` says the stream is the work itself (an MCP tool call answered over SSE), when
 * the turn lasts until the event stream ends. The probes and
 * `/metrics` never wait (`exempt`); mount the probes before this middleware all the same, so that
 * they skip every other step too. With `metrics`, the line is visible as
 * `http_admission_in_flight`, `http_admission_queued` and `http_admission_refused_total{reason}`.
 *
 * @example
 * app.use(metrics.middleware());
 * app.route('/', healthRoutes({ ready }));
 * app.use(admissionControl({ config: config.admission, metrics }));
 */
export function admissionControl(options: AdmissionControlOptions = {}): MiddlewareHandler {
  const config = parseConfig(AdmissionConfigSchema, options.config ?? {}, 'admission');
  if (!config.enabled) return (_c, next) => next();
  const admission = new Admission(config);
  const exempt = new Set(options.exempt ?? ADMISSION_EXEMPT_PATHS);
  const refused = options.metrics
    ? registerAdmissionMetrics(options.metrics, admission)
    : undefined;
  const retryAfter = String(config.retryAfterSeconds);
  const refuse = (reason: AdmissionRefusal) => {
    refused?.inc({ reason });
    return problemResponse(
      {
        status: 503,
        title: 'Service Unavailable',
        detail:
          reason === 'queue-full'
            ? `The server is at capacity (${config.maxInFlight} requests in progress, ${config.maxQueued} waiting); retry after ${retryAfter} s`
            : reason === 'timeout'
              ? `No turn came within ${config.maxWaitMs} ms (the server is at capacity); retry after ${retryAfter} s`
              : 'The client went away while waiting for a turn',
        code: 'OVERLOADED',
      },
      { 'Retry-After': retryAfter },
    );
  };
  return async (c, next) => {
    if (exempt.has(c.req.path)) return next();
    let release: (() => void) | AdmissionRefusal;
    if (admission.free) {
      release = admission.enter() as () => void;
    } else {
      const departure = departureOf(c);
      try {
        release = await admission.enter(departure.signal);
      } finally {
        departure.dispose();
      }
    }
    if (typeof release === 'string') return refuse(release);
    try {
      await next();
    } catch (error) {
      release();
      throw error;
    }
    // `c.res.body` last: on Node, reading it turns @hono/node-server's light response into a
    // WHATWG Response with a web stream, which costs every answer (a third of a submission).
    if (
      options.holdsStream?.(c) &&
      c.res.headers.get('content-type')?.startsWith('text/event-stream') &&
      c.res.body
    ) {
      c.res = new Response(releasedAtEnd(c.res.body, release), c.res);
    } else {
      release();
    }
  };
}

/**
 * A signal that aborts when the client goes away while its request waits. On Node the socket
 * says so: `c.req.raw` is not touched, because making @hono/node-server build the Request starts
 * reading the body, which a handler that reads Node's request itself (oidc-provider) would lose.
 */
function departureOf(c: Context): { signal: AbortSignal; dispose: () => void } {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming) return { signal: c.req.raw.signal, dispose: () => {} };
  const controller = new AbortController();
  const socket = incoming.socket;
  const onClose = () => controller.abort();
  if (socket.destroyed) controller.abort();
  else socket.once('close', onClose);
  return { signal: controller.signal, dispose: () => socket.off('close', onClose) };
}

/** The same body, calling `release` once it ended, failed or was cancelled. */
function releasedAtEnd(
  body: ReadableStream<Uint8Array>,
  release: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
}

function registerAdmissionMetrics(metrics: ServiceMetrics, admission: Admission) {
  // One set per registry: a second app on the same registry reads its own line only in its refusals.
  const existing = metrics.registry.getSingleMetric('http_admission_refused_total');
  if (existing) return existing as ReturnType<typeof metrics.counter<'reason'>>;
  metrics.gauge(
    'http_admission_in_flight',
    'Requests being worked on now under admission control (probes and metrics excluded)',
    [],
    () => admission.load.inFlight,
  );
  metrics.gauge(
    'http_admission_queued',
    'Requests waiting for a turn under admission control',
    [],
    () => admission.load.queued,
  );
  return metrics.counter(
    'http_admission_refused_total',
    'Requests answered 503 by admission control, by reason (queue-full, timeout, aborted)',
    ['reason'],
  );
}
