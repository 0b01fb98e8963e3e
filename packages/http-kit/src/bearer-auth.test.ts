import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthVariables, bearerAuth, constantTimeEqual, requireRole } from './bearer-auth';
import { type RunningServer, startHttpServer } from './server';

describe('bearerAuth and requireRole over HTTP', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const app = new Hono<{ Variables: AuthVariables }>();
    app.use(
      '/v1/*',
      bearerAuth({
        keys: [
          { key: 'admin-secret', role: 'admin', name: 'ops' },
          { key: 'guardian-secret', role: 'guardian' },
        ],
      }),
    );
    app.get('/v1/whoami', (c) => c.json(c.get('principal') ?? null));
    app.post('/v1/admin', requireRole('admin'), (c) => c.json({ ok: true }));
    app.use('/open/*', bearerAuth({ keys: [{ key: 'k', role: 'reader' }], required: false }));
    app.get('/open/x', (c) => c.json({ principal: c.get('principal') ?? null }));
    server = await startHttpServer(app);
  });
  afterAll(() => server.close());

  const call = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, init);

  it('answers 401 with a problem and WWW-Authenticate without a key', async () => {
    const res = await call('/v1/whoami');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await res.json()).title).toBe('Unauthorized');
  });

  it('answers 401 for a wrong key or a malformed header', async () => {
    expect((await call('/v1/whoami', { headers: { authorization: 'Bearer nope' } })).status).toBe(
      401,
    );
    expect((await call('/v1/whoami', { headers: { authorization: 'Basic abc' } })).status).toBe(
      401,
    );
  });

  it('sets the principal without the key for a valid key', async () => {
    const res = await call('/v1/whoami', { headers: { authorization: 'Bearer admin-secret' } });
    expect(await res.json()).toEqual({ role: 'admin', name: 'ops' });
  });

  it('answers 403 naming the needed role', async () => {
    const res = await call('/v1/admin', {
      method: 'POST',
      headers: { authorization: 'Bearer guardian-secret' },
    });
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toContain('admin');
    const ok = await call('/v1/admin', {
      method: 'POST',
      headers: { authorization: 'Bearer admin-secret' },
    });
    expect(ok.status).toBe(200);
  });

  it('lets anonymous requests through when the key is optional, but not wrong keys', async () => {
    expect(await (await call('/open/x')).json()).toEqual({ principal: null });
    expect((await call('/open/x', { headers: { authorization: 'Bearer bad' } })).status).toBe(401);
  });

  it('compares secrets whatever their lengths', () => {
    expect(constantTimeEqual('a', 'a')).toBe(true);
    expect(constantTimeEqual('a', 'ab')).toBe(false);
  });
});
