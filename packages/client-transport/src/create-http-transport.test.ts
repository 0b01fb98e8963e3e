import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpTransport, type HttpCall } from './create-http-transport';
import type { TransportErrors } from './transport-errors';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/echo') {
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ query: Object.fromEntries(url.searchParams) }));
    }
    if (url.pathname === '/slow') return setTimeout(() => res.writeHead(200).end('{}'), 2_000);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** Errors that say which kind they are, as a client's errors do. */
const errors: TransportErrors<string> = {
  aborted: () => new Error('aborted'),
  timeout: () => new Error('timeout'),
  network: () => new Error('network'),
  problem: (status) => new Error(`problem ${status}`),
  invalid: () => new Error('invalid'),
  rejected: () => new Error('rejected'),
  isOwn: () => false,
};
const anyJson = (value: unknown) => ({ success: true as const, data: value });

describe('createHttpTransport', () => {
  it('sends the query string, and a signal aborted after the call no longer reaches its fetch', async () => {
    const signals: AbortSignal[] = [];
    const send = createHttpTransport(
      {
        baseUrl: base,
        timeoutMs: 5_000,
        retries: 0,
        maxResponseBytes: 1_000,
        fetch: (input, init) => {
          signals.push(input instanceof Request ? input.signal : init!.signal!);
          return fetch(input, init);
        },
      },
      errors,
    );
    const caller = new AbortController();
    const call: HttpCall<unknown, string> = {
      method: 'get',
      path: 'echo',
      searchParams: { q: 'a b', limit: 10 },
      accept: 'application/json',
      retry: 'idempotent',
      signal: caller.signal,
      parse: anyJson,
    };
    expect(await send(call)).toEqual({ query: { q: 'a b', limit: '10' } });
    // An MCP server aborts each tool call's signal once it is answered: the finished fetch is
    // left alone (no abort travels on into it).
    caller.abort();
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(false);
  });

  it('still stops a call at the caller’s abort and at its deadline', async () => {
    const send = createHttpTransport(
      { baseUrl: base, timeoutMs: 200, retries: 0, maxResponseBytes: 1_000 },
      errors,
    );
    const slow = {
      method: 'get',
      path: 'slow',
      accept: 'application/json',
      retry: 'idempotent',
      parse: anyJson,
    } as const;
    await expect(send(slow)).rejects.toThrow('timeout');
    const caller = new AbortController();
    setTimeout(() => caller.abort(), 50);
    await expect(send({ ...slow, signal: caller.signal })).rejects.toThrow('aborted');
  });
});
