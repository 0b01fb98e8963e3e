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
