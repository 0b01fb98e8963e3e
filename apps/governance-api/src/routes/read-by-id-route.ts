import { bearerGuarded, openApiJson } from '@dcg/http-kit';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { z } from 'zod';
import type { GovernanceEnv } from '../app-env';
import type { Guards } from '../auth';
import { guardedProblems } from './guarded-problems';
import { idPathParams } from './openapi-schemas';

/**
 * A read of one thing by its `id` path parameter, behind an API key: 200 with it, 401 without a
 * valid key, 404 (thrown by `read` as a domain error) when there is none.
 *
 * @example
 * mountReadById(app, guards, {
 *   path: '/v1/computational-governance/policies/{id}',
 *   operationId: 'getPolicy',
 *   tags: ['policies'],
 *   summary: 'One policy',
 *   maxIdLength: 500,
 *   found: openApiJson('The policy', PolicySchema),
 *   notFound: 'No such policy',
 *   read: (id) => governance.policies.get(id),
 * });
 */
export function mountReadById<S extends z.ZodType>(
  app: OpenAPIHono<GovernanceEnv>,
  guards: Guards,
  route: {
    path: string;
    operationId: string;
    tags: string[];
    summary: string;
    maxIdLength: number;
    found: { description: string; schema: S };
    notFound: string;
    read: (id: string) => Promise<z.output<S>>;
  },
): void {
  const { maxIdLength, found, notFound, read, ...operation } = route;
  app.openapi(
    createRoute({
      method: 'get',
      ...operation,
      ...bearerGuarded(guards.authenticate),
      request: { params: idPathParams('id', maxIdLength) },
      responses: {
        200: openApiJson(found.description, found.schema),
        ...guardedProblems({ 404: notFound }),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await read(id), 200) as never;
    },
  );
}
