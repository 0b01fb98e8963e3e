// The load side of bench/probes-under-load.ts, in a process of its own so that the clients never
// share an event loop with the servers or with the process that times the probes. LOAD_SPEC (JSON)
// says what to send: `clients` loops, each on its own keep-alive connection, sending the same
// request back to back for `seconds`. A response counts as served when its status is 200 and its
// body contains `expect` (when given) and not `reject` (an MCP tool error is a 200 with
// `"isError":true`). Prints {"msg":"started"} once the loops run, then one JSON line with the
// figures: served, served per second, latency p50/p99 of served requests, failures by kind
// (status code, error code, "body") and one sample of each kind.
import { Agent, request } from 'node:http';

interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  clients: number;
  seconds: number;
  expect?: string;
  reject?: string;
}

const spec = JSON.parse(process.env.LOAD_SPEC ?? 'null') as LoadSpec | null;
if (!spec) throw new Error('LOAD_SPEC is required');
const url = new URL(spec.url);
const agent = new Agent({ keepAlive: true, maxSockets: spec.clients });
const body = spec.body === undefined ? undefined : Buffer.from(spec.body);
const headers = {
  ...spec.headers,
  ...(body ? { 'content-length': String(body.length) } : {}),
};

function once(): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: spec!.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const latencies: number[] = [];
const failures: Record<string, number> = {};
const samples: Record<string, string> = {};
const fail = (kind: string, sample: string) => {
  failures[kind] = (failures[kind] ?? 0) + 1;
  samples[kind] ??= sample.slice(0, 300);
};
const end = performance.now() + spec.seconds * 1000;
console.log(JSON.stringify({ msg: 'started' }));
await Promise.all(
  Array.from({ length: spec.clients }, async () => {
    while (performance.now() < end) {
      const start = performance.now();
      try {
        const { status, text } = await once();
        if (status !== 200) fail(String(status), text);
        else if (spec.expect && !text.includes(spec.expect)) fail('body', text);
        else if (spec.reject && text.includes(spec.reject)) fail('body', text);
        else latencies.push(performance.now() - start);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).name;
        fail(code, (error as Error).message);
      }
    }
  }),
);
agent.destroy();
latencies.sort((a, b) => a - b);
const at = (q: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))];
console.log(
  JSON.stringify({
    msg: 'done',
    served: latencies.length,
    perSecond: latencies.length / spec.seconds,
    p50: at(0.5),
    p99: at(0.99),
    failures,
    samples,
  }),
);
