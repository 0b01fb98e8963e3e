import { fileURLToPath } from 'node:url';
import { chromiumAvailable, launchChromium } from '@dcg/testing-browser';
import { build } from 'esbuild';
import { Hono } from 'hono';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveApp } from './__fixtures__/serve-app';

// The root entry must run in a browser: it is bundled for the browser platform (a `node:` import
// would fail the build) and driven in headless Chromium against a real server of the same origin.

const scenario = `(async () => {
  const kg = await import(location.origin + '/kg-client.js');
  const client = kg.createKgClient({ baseUrl: location.origin, timeoutMs: 20000 });
  const quick = kg.createKgClient({ baseUrl: location.origin, timeoutMs: 1000 });
  const search = await client.search('flaky');
  const rows = kg.toPlainRows(await client.select('SELECT ?n {}'));
  const timeout = await quick.sparql('# slow').catch((error) => error);
  const controller = new AbortController();
  controller.abort();
  const aborted = await client.search('x', { signal: controller.signal }).catch((error) => error);
  return {
    search,
    rows,
    timeout: kg.KgClientError.isInstance(timeout) ? timeout.code : String(timeout),
    aborted: kg.KgClientError.isInstance(aborted) ? aborted.code : String(aborted),
  };
})()`;

describe.skipIf(!chromiumAvailable('kg-client in a browser'))('kg-client in a browser', () => {
  let browser: Browser;
  let server: { url: string; close: () => Promise<void> };
  let flaky = 0;

  beforeAll(async () => {
    const bundle = await build({
      entryPoints: [fileURLToPath(new URL('./index.ts', import.meta.url))],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      conditions: ['@dcg/source'],
      write: false,
      logLevel: 'silent',
    });
    const code = bundle.outputFiles[0]?.text ?? '';
    const app = new Hono();
    app.get('/', (c) => c.html('<!doctype html><title>kg-client</title>'));
    app.get('/kg-client.js', (c) => c.body(code, 200, { 'content-type': 'text/javascript' }));
    app.get('/v1/search/query', (c) => {
      if (c.req.query('term') === 'flaky') flaky += 1;
      if (c.req.query('term') === 'flaky' && flaky === 1) {
        return c.json({ title: 'busy', status: 503 }, 503, { 'retry-after': '0' });
      }
      return c.json({
        results: [`https://ex.org/${encodeURIComponent(c.req.query('term') ?? '')}`],
        totalResults: 1,
        offset: 0,
        limit: 10,
      });
    });
    app.post('/v1/graph/sparql', async (c) => {
      if ((await c.req.text()).includes('slow')) await new Promise((r) => setTimeout(r, 5_000));
      return c.json({
        head: { vars: ['n'] },
        results: {
          bindings: [
            {
              n: { type: 'literal', value: '5', datatype: 'http://www.w3.org/2001/XMLSchema#int' },
            },
          ],
        },
      });
    });
    server = await serveApp(app);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('searches, retries, converts values, times out and aborts in Chromium', async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    // A string, not a function: the code must reach the browser untouched by vitest's transform.
    const outcome = await page.evaluate(scenario);
    expect(outcome).toEqual({
      search: { results: ['https://ex.org/flaky'], totalResults: 1, offset: 0, limit: 10 },
      rows: [{ n: 5 }],
      timeout: 'timeout',
      aborted: 'aborted',
    });
    expect(flaky).toBe(2);
  });
});
