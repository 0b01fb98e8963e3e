import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { getAbsoluteFSPath } from 'swagger-ui-dist';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

// Started from a file rather than an inline script, so that the page's policy allows no inline script.
const INITIALIZER = `window.ui = SwaggerUIBundle({
  url: document.getElementById('swagger-ui').dataset.specUrl,
  dom_id: '#swagger-ui',
});
`;

/**
 * What the reference page may load: its own scripts, styles and the OpenAPI document, the inline
 * SVG and data: images of Swagger UI; no other origin, no inline script, no framing.
 */
const DOCS_CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ["'none'"],
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
  const cache = new Map<string, Uint8Array<ArrayBuffer>>();
  const app = new Hono();
  app.use(
    secureHeaders({
      contentSecurityPolicy: DOCS_CONTENT_SECURITY_POLICY,
      xFrameOptions: 'DENY',
      strictTransportSecurity: false,
    }),
  );
  app.get('/', (c) => {
    // Relative asset links break when the page is served without a trailing slash.
    const base = c.req.path.endsWith('/') ? c.req.path : `${c.req.path}/`;
    return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(options.title)} — API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" type="image/png" href="${base}assets/favicon-32x32.png">
<link rel="stylesheet" href="${base}assets/swagger-ui.css"></head>
<body><div id="swagger-ui" data-spec-url="${escapeHtml(options.specUrl)}"></div>
<script src="${base}assets/swagger-ui-bundle.js"></script>
<script src="${base}assets/swagger-initializer.js"></script>
</body></html>`);
  });
  app.get('/assets/:file', (c) => {
    const file = c.req.param('file');
    if (file === 'swagger-initializer.js') {
      return c.body(INITIALIZER, 200, { 'content-type': 'text/javascript; charset=utf-8' });
    }
    const type = ASSETS[file];
    if (!type) return c.notFound();
    let body = cache.get(file);
    if (body === undefined) {
      body = new Uint8Array(readFileSync(join(dir, file)));
      cache.set(file, body);
    }
    return c.body(body, 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' });
  });
  return app;
}
