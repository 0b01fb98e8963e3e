import { GovernanceError } from '@dcg/governance';
import { installErrorHandling } from '@dcg/http-kit';
import { MarketplaceSearchError } from '@dcg/marketplace-search';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { GovernanceEnv } from './app-env';
import { governanceErrorHandler } from './governance-problems';

/** An app that throws the given error from its one route, with the API's handlers installed. */
function throwing(error: Error) {
  const logged: unknown[] = [];
  const app = new Hono<GovernanceEnv>();
  installErrorHandling(app);
  const api = new Hono<GovernanceEnv>();
  api.use(async (c, next) => {
    c.set('logger', {
      error: (_message: string, fields?: unknown) => logged.push(fields),
    } as never);
    await next();
  });
  api.onError(governanceErrorHandler);
  api.get('/x', () => {
    throw error;
  });
  app.route('/', api);
  return { app, logged };
}

describe('governanceErrorHandler', () => {
  it('maps a search error thrown by any route to its problem, in the one handler', async () => {
    const cases = [
      [new MarketplaceSearchError('search_unavailable', 'Embeddings search is disabled'), 409],
      [new MarketplaceSearchError('invalid_query', 'q must not be empty'), 400],
      [new MarketplaceSearchError('provider_timeout', 'the provider timed out'), 503],
    ] as const;
    for (const [error, status] of cases) {
      const res = await throwing(error).app.request('/x');
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(await res.json()).toMatchObject({
        status,
        type: `urn:dcg:marketplace-search:${error.code}`,
        detail: error.message,
        instance: '/x',
      });
    }
  });

  it('keeps embedding store internals in the log, not in the answer', async () => {
    const cause = new Error('connect ECONNREFUSED 10.0.0.7:5432');
    const { app, logged } = throwing(
      new MarketplaceSearchError('store_failed', 'pg: connect ECONNREFUSED 10.0.0.7:5432', {
        cause,
      }),
    );
    const res = await app.request('/x');
    expect(res.status).toBe(503);
    const body = await res.text();
    expect(body).not.toContain('10.0.0.7');
    expect(JSON.parse(body).detail).toBe('The embedding storage is unavailable; retry later');
    expect(logged).toEqual([{ error: cause }]);
  });

  it('still maps governance errors and gives each field error its code', async () => {
    const res = await throwing(
      new GovernanceError('invalid_input', 'The policy is invalid', {
        issues: [{ code: 'too_long', segments: ['name'], path: '$.name', message: 'too long' }],
      } as never),
    ).app.request('/x');
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual([
      { path: '$.name', message: 'too long', code: 'too_long' },
    ]);
  });
});
