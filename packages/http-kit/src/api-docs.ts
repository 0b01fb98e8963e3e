import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from 'hono';
import { apiReference } from './api-reference';
import { type OpenApiDocumentOptions, serveOpenApiDocument } from './openapi-document';

/**
 * The app's OpenAPI document at `/openapi.json` and its reference page at `/docs`, under one
 * title; the `bearerAuth` security scheme (an API key as a bearer token) described as given.
 *
 * @example
 * serveApiDocs(app, { info: { title: 'dcg kg-api', version: '1.0.0' }, defaultSecurity: [],
 *   bearerAuth: 'An API key from auth.apiKeys', operational: { ready: 'Checks the store.' } });
 */
export function serveApiDocs<E extends Env>(
  // biome-ignore lint/suspicious/noExplicitAny: any schema and base path
  app: OpenAPIHono<E, any, any>,
  options: Omit<OpenApiDocumentOptions, 'path'> & { bearerAuth: string },
): void {
  const { bearerAuth, ...documentOptions } = options;
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: bearerAuth,
  });
  const document = serveOpenApiDocument(app, documentOptions);
  app.route(
    '/docs',
    apiReference({ specUrl: '/openapi.json', title: documentOptions.info.title, document }),
  );
}
