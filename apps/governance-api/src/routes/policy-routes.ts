import {
  type Governance,
  MAX_ENVIRONMENT_LENGTH,
  PolicyCreateSchema,
  PolicyStatusSchema,
  PolicyTriggerSchema,
} from '@dcg/governance';
import { bearerGuarded, openApiJson } from '@dcg/http-kit';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import type { GovernanceEnv } from '../app-env';
import type { Guards } from '../auth';
import { guardedProblems } from './guarded-problems';
import { PagingQuerySchema, PolicyPageSchema, PolicySchema } from './openapi-schemas';
import { mountReadById } from './read-by-id-route';

const text = (max: number) => z.string().min(1).max(max);

/**
 * Computational governance policies: list with filters and paging, get, create.
 *
 * @example
 * mountPolicyRoutes(app, { governance, guards });
 */
export function mountPolicyRoutes(
  app: OpenAPIHono<GovernanceEnv>,
  deps: { governance: Governance; guards: Guards; maxBodyBytes: number },
): void {
  const { governance, guards } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/computational-governance/policies',
      operationId: 'listPolicies',
      tags: ['policies'],
      summary: 'Policies, filtered and paged: { data, meta: { pagination } }',
      ...bearerGuarded(guards.authenticate),
      request: {
        query: PagingQuerySchema.extend({
          resourceType: text(200).optional(),
          trigger: PolicyTriggerSchema.optional(),
          status: PolicyStatusSchema.optional(),
          environment: text(MAX_ENVIRONMENT_LENGTH).optional(),
          env: text(MAX_ENVIRONMENT_LENGTH)
            .optional()
            .describe('Alias of environment (the established name)'),
          text: z.string().max(500).optional(),
        }),
      },
      responses: {
        200: openApiJson('One page of policies', PolicyPageSchema),
        ...guardedProblems({ 400: 'Invalid filter or paging' }),
      },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const page = await governance.policies.list({
        limit: q.limit,
        offset: q.offset,
        ...(q.resourceType === undefined ? {} : { resourceType: q.resourceType }),
        ...(q.trigger === undefined ? {} : { trigger: q.trigger }),
        ...(q.status === undefined ? {} : { status: q.status }),
        ...((q.environment ?? q.env) === undefined
          ? {}
          : { environment: (q.environment ?? q.env)! }),
        ...(q.text === undefined ? {} : { text: q.text }),
      });
      return c.json(page, 200);
    },
  );

  mountReadById(app, guards, {
    path: '/v1/computational-governance/policies/{id}',
    operationId: 'getPolicy',
    tags: ['policies'],
    summary: 'One policy',
    maxIdLength: 500,
    found: { description: 'The policy', schema: PolicySchema },
    notFound: 'No such policy',
    read: (id) => governance.policies.get(id),
  });

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/computational-governance/policies',
      operationId: 'registerPolicy',
      tags: ['policies'],
      summary: 'Create a policy directly',
      ...bearerGuarded(guards.authenticate, guards.role('platform-admin')),
      request: {
        body: { required: true, content: { 'application/json': { schema: PolicyCreateSchema } } },
      },
      responses: {
        201: openApiJson('The created policy', PolicySchema),
        ...guardedProblems({
          400: 'Invalid policy',
          403: 'The key is not a platform-admin key',
          409: 'A policy with this id exists',
        }),
      },
    }),
    async (c) => {
      const policy = await governance.policies.create(c.req.valid('json'));
      c.header(
        'Location',
        `/v1/computational-governance/policies/${encodeURIComponent(policy.id)}`,
      );
      return c.json(policy, 201);
    },
  );
}
