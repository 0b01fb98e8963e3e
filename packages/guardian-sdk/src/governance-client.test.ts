import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GovernanceClient } from './governance-client';
import { GuardianSdkError } from './guardian-sdk-error';
import { buildSubmission, requirement } from './result-builder';

const body = buildSubmission({
  resource: { id: 'urn:x' },
  results: { root: [requirement('a').compliant()] },
});
let url = '';
let server: ReturnType<typeof serve>;
const calls: Array<{
  path: string;
  env: string | undefined;
  auth: string | undefined;
  at: number;
  body: unknown;
}> = [];
let script: Array<(c: import('hono').Context) => Response | Promise<Response>> = [];

beforeAll(async () => {
  const app = new Hono();
  app.post('/v1/computational-governance/policies/:policy/evaluation-results', async (c) => {
    calls.push({
      path: c.req.path,
      env: c.req.query('environment'),
      auth: c.req.header('authorization'),
      at: Date.now(),
      body: await c.req.json(),
    });
    const next = script.shift();
    return next ? next(c) : c.json({ seq: calls.length }, 201);
  });
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      url = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const problem =
  (status: number, headers: Record<string, string> = {}) =>
  (c: import('hono').Context) =>
    c.body(
      JSON.stringify({ type: 'about:blank', title: 'T', status, detail: `d${status}` }),
      status as 400,
      {
        'content-type': 'application/problem+json',
        ...headers,
      },
    );

describe('GovernanceClient', () => {
  it('posts the body with the bearer key and the environment', async () => {
    calls.length = 0;
    const client = new GovernanceClient({ baseUrl: url, apiKey: 'k-1' });
    const receipt = await client.submit({ policyId: 'p/1', environment: 'production', body });
    expect(receipt).toMatchObject({ status: 201, attempts: 1 });
    expect(calls[0]).toMatchObject({
      path: '/v1/computational-governance/policies/p%2F1/evaluation-results',
      env: 'production',
      auth: 'Bearer k-1',
      body,
    });
  });

  it('retries 429 honouring Retry-After and 5xx, then succeeds', async () => {
    calls.length = 0;
    script = [problem(429, { 'retry-after': '1' }), problem(503)];
    const client = new GovernanceClient({ baseUrl: url, backoffMs: 10 });
    const receipt = await client.submit({ policyId: 'p', environment: 'e', body });
    expect(receipt.attempts).toBe(3);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('does not retry other 4xx and carries the problem details', async () => {
    calls.length = 0;
    script = [problem(422)];
    const client = new GovernanceClient({ baseUrl: url, backoffMs: 1 });
    const error = await client.submit({ policyId: 'p', environment: 'e', body }).catch((e) => e);
    expect(calls).toHaveLength(1);
    expect(GuardianSdkError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'problem', status: 422, problem: { detail: 'd422' } });
  });

  it('gives up after the retries with the last problem', async () => {
    calls.length = 0;
    script = [problem(500), problem(500), problem(500)];
    const client = new GovernanceClient({ baseUrl: url, backoffMs: 1, retries: 2 });
    const error = await client.submit({ policyId: 'p', environment: 'e', body }).catch((e) => e);
    expect(calls).toHaveLength(3);
    expect(error).toMatchObject({ code: 'problem', status: 500 });
  });

  it('retries network errors and reports them typed; times out; aborts', async () => {
    const unreachable = new GovernanceClient({
      baseUrl: 'http://127.0.0.1:1',
      backoffMs: 1,
      retries: 1,
    });
    await expect(
      unreachable.submit({ policyId: 'p', environment: 'e', body }),
    ).rejects.toMatchObject({ code: 'network' });
    script = [
      async (c) => {
        await new Promise((r) => setTimeout(r, 500));
        return c.json({}, 201);
      },
    ];
    const slow = new GovernanceClient({ baseUrl: url, timeoutMs: 100, retries: 0 });
    await expect(slow.submit({ policyId: 'p', environment: 'e', body })).rejects.toMatchObject({
      code: 'timeout',
    });
    script = [problem(503), problem(503)];
    const controller = new AbortController();
    const waiting = new GovernanceClient({ baseUrl: url, backoffMs: 5000 }).submit({
      policyId: 'p',
      environment: 'e',
      body,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    await expect(waiting).rejects.toMatchObject({ code: 'aborted' });
    script = [];
    expect(() => new GovernanceClient({ baseUrl: 'not a url' })).toThrow(/baseUrl/);
  });

  it('retries an attempt that timed out, and caps a long Retry-After at maxBackoffMs', async () => {
    calls.length = 0;
    script = [
      async (c) => {
        await new Promise((r) => setTimeout(r, 600));
        return c.json({}, 201);
      },
      problem(503, { 'retry-after': '3600' }),
    ];
    const client = new GovernanceClient({
      baseUrl: url,
      timeoutMs: 200,
      backoffMs: 1,
      maxBackoffMs: 300,
      retries: 2,
    });
    const started = Date.now();
    const receipt = await client.submit({ policyId: 'p', environment: 'e', body });
    expect(receipt).toMatchObject({ status: 201, attempts: 3 });
    expect(calls).toHaveLength(3);
    expect(calls[2]!.at - calls[1]!.at).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('does not retry a 501 (not a transient answer)', async () => {
    calls.length = 0;
    script = [problem(501)];
    const client = new GovernanceClient({ baseUrl: url, backoffMs: 1 });
    const error = await client.submit({ policyId: 'p', environment: 'e', body }).catch((e) => e);
    expect(calls).toHaveLength(1);
    expect(error).toMatchObject({ code: 'problem', status: 501 });
  });

  it('never follows a redirect (the key stays with the governance API), nor retries it', async () => {
    calls.length = 0;
    script = [(c) => c.redirect('http://127.0.0.1:1/elsewhere', 307)];
    const client = new GovernanceClient({ baseUrl: url, apiKey: 'k-1', backoffMs: 1 });
    const error = await client.submit({ policyId: 'p', environment: 'e', body }).catch((e) => e);
    expect(calls).toHaveLength(1);
    expect(error).toMatchObject({ code: 'network' });
    expect(error.message).toContain('redirects are not followed');
  });

  it('refuses an answer beyond the size cap without reading it', async () => {
    calls.length = 0;
    script = [(c) => c.json({ pad: 'x'.repeat(2 << 20) }, 201)];
    const client = new GovernanceClient({ baseUrl: url, backoffMs: 1 });
    const error = await client.submit({ policyId: 'p', environment: 'e', body }).catch((e) => e);
    expect(calls).toHaveLength(1);
    expect(error).toMatchObject({ code: 'network' });
    expect(error.message).toMatch(/more than \d+ bytes/);
  });

  it('never sends a body that breaks A3/A4', async () => {
    calls.length = 0;
    const client = new GovernanceClient({ baseUrl: url });
    const bad = [
      {
        resource: { id: 'urn:x', descriptor: '' },
        result: { satisfiesPolicy: true, details: { results: { root: [{ key: 'a' }] } } },
      },
    ];
    const error = await client
      .submit({ policyId: 'p', environment: 'e', body: bad as never })
      .catch((e) => e);
    expect(error).toMatchObject({ code: 'invalid_result' });
    expect(error.message).toContain('$[0].result.details.results.root[0]');
    expect(calls).toHaveLength(0);
  });
});
