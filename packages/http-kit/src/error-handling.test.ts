import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiReference } from './api-reference';
import { installErrorHandling } from './error-handling';
import { healthRoutes } from './health';
import { createLogger } from './logger';
import { ProblemError } from './problem';
import { requestContext } from './request-context';
import { type RunningServer, startHttpServer } from './server';
import { zodValidationHook } from './zod-validation-hook';

describe('an app built from the kit', () => {
  let server: RunningServer;
  const lines: string[] = [];
  let ready = true;

  beforeAll(async () => {
    const logger = createLogger('test', { write: (line) => lines.push(line) });
    const app = new OpenAPIHono({ defaultHook: zodValidationHook });
    app.use(requestContext({ logger }));
    installErrorHandling(app, logger);
    app.openapi(
      createRoute({
        method: 'post',
        path: '/things',
        request: {
          body: {
            content: {
              'application/json': {
                schema: z.object({ name: z.string(), tags: z.array(z.string()) }),
              },
            },
          },
        },
        responses: { 201: { description: 'created' } },
      }),
      (c) => c.json({ created: c.req.valid('json').name }, 201),
    );
    app.get('/missing', () => {
      throw new ProblemError({ status: 404, title: 'Thing not found', detail: 'No thing 7' });
    });
    app.get('/bug', () => {
      throw new Error('secret internals');
    });
    app.doc('/openapi.json', { openapi: '3.1.0', info: { title: 'test', version: '1' } });
    app.route(
      '/docs',
      apiReference({
        specUrl: '/openapi.json',
        title: 'test',
        document: () =>
          app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'test', version: '1' } }),
      }),
    );
    app.route('/', healthRoutes({ ready: () => ({ ready }) }));
    server = await startHttpServer(app);
  });
  afterAll(() => server.close());

  const post = (body: string) =>
    fetch(`${server.url}/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });

  it('answers invalid bodies with 400 and JSON paths', async () => {
    const res = await post(JSON.stringify({ name: 1, tags: ['a', 2] }));
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const problem = await res.json();
    expect(problem.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      '$.name',
      '$.tags[1]',
    ]);
    // Clients branch on each entry's code, never on its message.
    expect(problem.errors.map((e: { code: string }) => e.code)).toEqual([
      'invalid_type',
      'invalid_type',
    ]);
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const res = await post('{"name":');
    expect(res.status).toBe(400);
    expect((await res.json()).status).toBe(400);
  });

  it('accepts a valid body', async () => {
    const res = await post(JSON.stringify({ name: 'x', tags: [] }));
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ created: 'x' });
  });

  it('turns a thrown ProblemError into its problem', async () => {
    const res = await fetch(`${server.url}/missing`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      title: 'Thing not found',
      detail: 'No thing 7',
      instance: '/missing',
    });
  });

  it('hides bugs behind a 500 problem and logs them', async () => {
    const res = await fetch(`${server.url}/bug`);
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('secret internals');
    expect(lines.some((l) => l.includes('secret internals'))).toBe(true);
  });

  it('answers unknown routes with a 404 problem', async () => {
    const res = await fetch(`${server.url}/nope`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });

  it('echoes a request id and logs one JSON line per request', async () => {
    const res = await fetch(`${server.url}/health`, { headers: { 'x-request-id': 'req-42' } });
    expect(res.headers.get('x-request-id')).toBe('req-42');
    const line = lines.map((l) => JSON.parse(l)).find((l) => l.requestId === 'req-42');
    expect(line).toMatchObject({ msg: 'request', method: 'GET', path: '/health', status: 200 });
  });

  it('reports readiness', async () => {
    expect((await fetch(`${server.url}/ready`)).status).toBe(200);
    ready = false;
    expect((await fetch(`${server.url}/ready`)).status).toBe(503);
    ready = true;
  });

  it('serves a server-rendered reference page with an example of each response', async () => {
    const page = await (await fetch(`${server.url}/docs`)).text();
    expect(page).toContain('href="/openapi.json"');
    expect(page).not.toContain('<script');
    expect(page).toContain('<span class="path">/things</span>');
    // The request body's example comes from its schema.
    expect(page).toContain('&#34;name&#34;: &#34;string&#34;');
    const spec = await (await fetch(`${server.url}/openapi.json`)).json();
    expect(spec.paths['/things'].post).toBeDefined();
  });
});
