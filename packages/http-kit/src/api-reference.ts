import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { getAbsoluteFSPath } from 'swagger-ui-dist';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
};

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * An interactive API reference page (Swagger UI) for an OpenAPI document, served from the local
 * `swagger-ui-dist` assets: it works without any network.
 *
 * @example
 * app.route('/docs', apiReference({ specUrl: '/openapi.json', title: 'kg-api' }));
 */
export function apiReference(options: { specUrl: string; title: string }): Hono {
  const dir = getAbsoluteFSPath();
  const cache = new Map<string, string>();
  const app = new Hono();
  app.get('/', (c) => {
    // Relative asset links break when the page is served without a trailing slash.
    const base = c.req.path.endsWith('/') ? c.req.path : `${c.req.path}/`;
    return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(options.title)} — API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${base}assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="${base}assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: ${JSON.stringify(options.specUrl)}, dom_id: '#swagger-ui' });</script>
</body></html>`);
  });
  app.get('/assets/:file', (c) => {
    const file = c.req.param('file');
    const type = ASSETS[file];
    if (!type) return c.notFound();
    let body = cache.get(file);
    if (body === undefined) {
      body = readFileSync(join(dir, file), 'utf8');
      cache.set(file, body);
    }
    return c.body(body, 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' });
  });
  return app;
}
