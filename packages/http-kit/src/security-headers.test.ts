import { OpenAPIHono } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { apiReference } from './api-reference';
import { installErrorHandling } from './error-handling';
import { ProblemError } from './problem';
import { API_SECURITY_HEADERS, securityHeaders } from './security-headers';

function app() {
  const api = new OpenAPIHono();
  api.use(securityHeaders());
  installErrorHandling(api);
  api.get('/thing', (c) => c.json({ ok: true }));
  api.get('/broken', () => {
    throw new ProblemError({ status: 422, title: 'Unprocessable' });
  });
  api.get('/page', (c) => {
    c.header('Content-Security-Policy', "default-src 'none'; style-src 'sha256-abc'");
    return c.html('<p>page</p>');
  });
  api.doc31('/openapi.json', { openapi: '3.1.0', info: { title: 't', version: '1' } });
  api.route(
    '/docs',
    apiReference({
      specUrl: '/openapi.json',
      title: 'T',
      document: () =>
        api.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } }),
    }),
  );
  return api;
}

describe('securityHeaders', () => {
  it('sets nosniff, frame protection and a deny-all policy on JSON, problems and unknown routes', async () => {
    for (const path of ['/thing', '/broken', '/nowhere', '/openapi.json']) {
      const response = await app().request(path);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('content-security-policy'), path).toBe(
        "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      );
      expect(response.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(response.headers.get('strict-transport-security'), path).toBeNull();
    }
  });

  it('sets exactly API_SECURITY_HEADERS on an API response (the list Node handlers copy)', async () => {
    const response = await app().request('/thing');
    const set = Object.fromEntries(
      [...response.headers].filter(([name]) => name !== 'content-type'),
    );
    expect(set).toEqual(API_SECURITY_HEADERS);
  });

  it('keeps the policy a page set for itself', async () => {
    const response = await app().request('/page');
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'sha256-abc'",
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('gives the API reference a policy that allows no script and only its own stylesheet', async () => {
    const response = await app().request('/docs');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('script-src');
    expect(csp).not.toContain('unsafe-inline');
    const html = await response.text();
    expect(html).not.toContain('<script');
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<main id="main"');
  });
});
