import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeError, exchange } from './exchange';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/ok') return res.writeHead(201, { 'x-id': '7' }).end('{"ok":true}');
    if (path === '/big') return res.writeHead(200).end('x'.repeat(2048));
    if (path === '/endless') {
      res.writeHead(200);
      const timer = setInterval(() => res.write('y'.repeat(512)), 5);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (path === '/latin1') return res.writeHead(200).end(Buffer.from([0xff, 0xfe, 0x41]));
    if (path === '/slow') return setTimeout(() => res.writeHead(200).end('late'), 2_000);
    if (path === '/away') return res.writeHead(307, { location: 'http://169.254.169.254/' }).end();
    if (path === '/here') return res.writeHead(308, { location: '/ok' }).end();
    if (path === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    res.writeHead(404).end('no such thing');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const limits = { timeoutMs: 1_000, maxResponseBytes: 1024 };

async function failure(path: string, options: Partial<Parameters<typeof exchange>[2]> = {}) {
  const error = await exchange(`${base}${path}`, {}, { ...limits, ...options }).catch((e) => e);
  expect(ExchangeError.isInstance(error)).toBe(true);
  return error as ExchangeError;
}

describe('exchange', () => {
  it('answers any status with its headers and text', async () => {
    const ok = await exchange(`${base}/ok`, { method: 'POST', body: '{}' }, limits);
    expect(ok).toMatchObject({ status: 201, text: '{"ok":true}' });
    expect(ok.headers.get('x-id')).toBe('7');
    const missing = await exchange(`${base}/nothing`, {}, limits);
    expect(missing).toMatchObject({ status: 404, statusText: 'Not Found', text: 'no such thing' });
  });

  it('stops at the size cap, declared or streamed, and refuses bytes that are not UTF-8', async () => {
    expect((await failure('/big')).code).toBe('too_large');
    const endless = await failure('/endless');
    expect(endless.code).toBe('too_large');
    expect(endless.message).toBe('answered more than 1024 bytes; the answer was not read');
    expect((await failure('/latin1')).code).toBe('not_utf8');
  });

  it('times out the whole exchange, and tells a caller abort apart', async () => {
    const slow = await failure('/slow', { timeoutMs: 100 });
    expect(slow).toMatchObject({ code: 'timeout', message: 'gave no answer within 100 ms' });
    const aborted = await failure('/slow', { signal: AbortSignal.timeout(50) });
    expect(aborted.code).toBe('aborted');
  });

  it('refuses redirects by default, and follows same-origin ones only when asked', async () => {
    const away = await failure('/away');
    expect(away.code).toBe('redirect_refused');
    expect(away.message).toBe(
      'answered 307 redirecting to http://169.254.169.254/; redirects are not followed',
    );
    expect((await failure('/here')).code).toBe('redirect_refused');
    const followed = await exchange(`${base}/here`, {}, { ...limits, redirects: 'same-origin' });
    expect(followed).toMatchObject({ status: 201, text: '{"ok":true}' });
    const other = await failure('/away', { redirects: 'same-origin' });
    expect(other.message).toMatch(/not followed to another origin$/);
    expect((await failure('/loop', { redirects: 'same-origin' })).message).toMatch(
      /not followed beyond 5 hops$/,
    );
  });

  it('says why a server cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await exchange(`http://127.0.0.1:${port}/`, {}, limits).catch((e) => e);
    expect(error).toMatchObject({ code: 'network' });
    expect(error.message).toMatch(/^cannot be reached: /);
  });
});
