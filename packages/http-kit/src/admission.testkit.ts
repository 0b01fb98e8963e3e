import { parsePrometheusText } from './operations.testkit';

/** Requests held open on a real server, and the way to let them end. */
export interface HeldRequests {
  /** Their answers, once {@link HeldRequests.release} sent the rest of each body. */
  answers: Promise<Response[]>;
  /** Sends the end of each body (`rest`), so that the handlers finish. */
  release(): void;
}

/**
 * Opens `count` requests whose bodies arrive only on `release()`: each handler that reads its
 * body waits meanwhile, so it holds a turn of the admission control (or a place in its line).
 *
 * @example
 * const held = holdRequests(`${url}/v1/sparql`, 4, { headers: { 'content-type': 'application/json' } });
 * … // the app is busy: /health must still answer
 * held.release();
 * await held.answers;
 */
export function holdRequests(
  url: string,
  count: number,
  init: { method?: string; headers?: Record<string, string>; start?: string; rest?: string } = {},
): HeldRequests {
  const encoder = new TextEncoder();
  const closers: (() => void)[] = [];
  const answers = Promise.all(
    Array.from({ length: count }, () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode(init.start ?? '{'));
          closers.push(() => {
            controller.enqueue(encoder.encode(init.rest ?? '}'));
            controller.close();
          });
        },
      });
      return fetch(url, {
        method: init.method ?? 'POST',
        headers: { 'content-type': 'application/json', ...init.headers },
        body,
        duplex: 'half',
      } as RequestInit);
    }),
  );
  return {
    answers,
    release: () => {
      for (const close of closers.splice(0)) close();
    },
  };
}

/**
 * The p99 and largest of `rounds` sequential `GET`s of `url` (ms), each asserted to answer 200.
 *
 * @example
 * const { max } = await probeLatency(`${url}/health`, 20);
 */
export async function probeLatency(
  url: string,
  rounds: number,
): Promise<{ p99: number; max: number; statuses: number[] }> {
  const times: number[] = [];
  const statuses: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    times.push(performance.now() - start);
    statuses.push(response.status);
  }
  times.sort((a, b) => a - b);
  return {
    p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))]!,
    max: times[times.length - 1]!,
    statuses,
  };
}

/** What a client sees of a server whose admission line is full: see {@link atCapacity}. */
export interface AtCapacity {
  /** The answer to one more request. */
  refused: { status: number; retryAfter: string | null; contentType: string | null; body: unknown };
  /** `/health` and `/ready`, 10 times each: every status, and the slowest answer (ms). */
  probes: { statuses: number[]; slowestMs: number };
  /** The admission series of a `/metrics` scrape (from loopback, no key) after the refusal. */
  metrics: { inFlight?: number; queued?: number; refusedQueueFull?: number };
}

/**
 * Waits until `/metrics` of `baseUrl` shows `line` (requests worked on and waiting, held by the
 * caller), then sends `next()`, times the probes and scrapes the admission series again: the
 * observations of every app's admission test, for one `expect(…).toMatchObject(…)`.
 *
 * @example
 * const held = holdRequests(`${url}/v1/things`, 4);
 * const seen = await atCapacity(url, { inFlight: 2, queued: 2 }, () => fetch(`${url}/v1/other`));
 * expect(seen.refused).toMatchObject({ status: 503, retryAfter: '1' });
 * held.release();
 */
export async function atCapacity(
  baseUrl: string,
  line: { inFlight: number; queued: number },
  next: () => Promise<Response>,
): Promise<AtCapacity> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { inFlight, queued } = await admissionSeries(baseUrl);
    if (inFlight === line.inFlight && queued === line.queued) break;
    if (Date.now() > deadline) {
      throw new Error(
        `the line never reached ${line.inFlight} in flight and ${line.queued} queued (last: ${inFlight}, ${queued})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const answer = await next();
  const text = await answer.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the text itself.
  }
  const statuses: number[] = [];
  let slowestMs = 0;
  for (const path of ['/health', '/ready']) {
    const probed = await probeLatency(`${baseUrl}${path}`, 10);
    statuses.push(...probed.statuses);
    slowestMs = Math.max(slowestMs, probed.max);
  }
  return {
    refused: {
      status: answer.status,
      retryAfter: answer.headers.get('retry-after'),
      contentType: answer.headers.get('content-type'),
      body,
    },
    probes: { statuses, slowestMs },
    metrics: await admissionSeries(baseUrl),
  };
}

async function admissionSeries(baseUrl: string): Promise<AtCapacity['metrics']> {
  const response = await fetch(`${baseUrl}/metrics`);
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
  const { samples } = parsePrometheusText(await response.text());
  const value = (name: string, labels: Record<string, string> = {}) =>
    samples.find(
      (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
    )?.value;
  const series: AtCapacity['metrics'] = {};
  const inFlight = value('http_admission_in_flight');
  const queued = value('http_admission_queued');
  const refusedQueueFull = value('http_admission_refused_total', { reason: 'queue-full' });
  if (inFlight !== undefined) series.inFlight = inFlight;
  if (queued !== undefined) series.queued = queued;
  if (refusedQueueFull !== undefined) series.refusedQueueFull = refusedQueueFull;
  return series;
}
