import {
  collectBoundedPage,
  type Governance,
  MAX_ENVIRONMENT_LENGTH,
  PlanStatusSchema,
  ProvisioningPlanSchema,
} from '@dcg/governance';
import { bearerGuarded, openApiJson, openApiProblem, ProblemError } from '@dcg/http-kit';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import type { GovernanceEnv } from '../app-env';
import type { Guards } from '../auth';
import { readJson } from '../governance-problems';
import { pageResponse } from '../page-response';
import { guardedProblems } from './guarded-problems';
import {
  bearerSecurity,
  EnvironmentSchema,
  PaginationMetaSchema,
  PagingQuerySchema,
} from './openapi-schemas';
import { mountReadById } from './read-by-id-route';

const ProvisioningBodySchema = z
  .object({
    environment: z.string().min(1),
    descriptor: z
      .union([z.string(), z.record(z.string(), z.unknown())])
      .optional()
      .describe('The system descriptor: YAML or JSON text, or a JSON object'),
    systemId: z
      .string()
      .optional()
      .describe('Undeploy only: a deployed system, instead of a descriptor'),
    removeData: z.boolean().optional(),
  })
  .meta({ id: 'ProvisioningRequestBody' });

const PlanPageSchema = z
  .object({ data: z.array(ProvisioningPlanSchema), meta: PaginationMetaSchema })
  .meta({ id: 'ProvisioningPlanPage' });

const PlanListQuerySchema = PagingQuerySchema.extend({
  status: PlanStatusSchema.optional().describe('Only plans in this state'),
  state: PlanStatusSchema.optional().describe('Alias of status'),
  environment: EnvironmentSchema.optional().describe('Only plans of this environment'),
});

const AcceptedPlanSchema = z
  .object({ id: z.string(), status: z.literal('running'), plan: z.string() })
  .meta({ id: 'AcceptedPlan' });

/**
 * The provisioning coordinator: deploy / undeploy (202 with a plan id) and the plan state.
 *
 * @example
 * mountProvisioningRoutes(app, { governance, guards });
 */
export function mountProvisioningRoutes(
  app: OpenAPIHono<GovernanceEnv>,
  deps: { governance: Governance; guards: Guards; maxBodyBytes: number; maxPageBytes: number },
): void {
  const { governance, guards } = deps;
  for (const operation of ['deploy', 'undeploy'] as const) {
    const path = `/v1/provisioning/${operation}`;
    app.openAPIRegistry.registerPath({
      method: 'post',
      path,
      operationId: operation === 'deploy' ? 'deploySystem' : 'undeploySystem',
      tags: ['provisioning'],
      summary:
        operation === 'deploy'
          ? 'Deploy a system: each component with an infrastructureTemplateId is provisioned by its tech adapter'
          : 'Undeploy a system: unprovision in reverse order',
      security: bearerSecurity,
      request: {
        body: {
          required: true,
          content: { 'application/json': { schema: ProvisioningBodySchema } },
        },
      },
      responses: {
        202: openApiJson('The plan started', AcceptedPlanSchema),
        400: openApiProblem('Invalid environment or descriptor'),
        413: openApiProblem(
          'The body, or the YAML descriptor once its aliases are expanded, is too large',
        ),
        ...guardedProblems({
          422: 'The body or the descriptor is nested deeper than limits.maxDepth',
          403: 'The key is not a coordinator key',
          404: 'Undeploy by systemId: not deployed there',
        }),
      },
    });
    app.post(path, guards.authenticate, guards.role('coordinator'), async (c) => {
      const body = (await readJson(c, deps.maxBodyBytes)) as Parameters<
        Governance['coordinator']['deploy']
      >[0];
      const plan = await governance.coordinator[operation](body);
      const location = `/v1/provisioning/plans/${encodeURIComponent(plan.id)}`;
      c.header('Location', location);
      return c.json({ id: plan.id, status: 'running' as const, plan: location }, 202);
    });
  }

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/provisioning/plans',
      operationId: 'listProvisioningPlans',
      tags: ['provisioning'],
      summary: 'Plans, newest first, optionally of one state and one environment; paged',
      ...bearerGuarded(guards.authenticate),
      request: { query: PlanListQuerySchema },
      responses: {
        200: openApiJson('One page of plans', PlanPageSchema),
        ...guardedProblems({
          400: 'Invalid state, environment or paging',
        }),
      },
    }),
    async (c) => {
      const q = c.req.valid('query');
      if (q.status !== undefined && q.state !== undefined && q.status !== q.state) {
        throw new ProblemError({
          status: 400,
          title: 'Invalid request',
          detail: 'status and its alias state name different states',
          errors: [
            {
              path: '$.query.state',
              message: `differs from status "${q.status}"`,
              code: 'conflicting_alias',
            },
          ],
        });
      }
      const status = q.status ?? q.state;
      // Plans carry their descriptors: the page is cut to limits.maxPageBytes and streamed.
      const page = await collectBoundedPage(
        (limit, offset) =>
          governance.coordinator.listPlans({
            limit,
            offset,
            ...(status === undefined ? {} : { status }),
            ...(q.environment === undefined ? {} : { environment: q.environment }),
          }),
        { limit: q.limit, offset: q.offset, maxBytes: deps.maxPageBytes },
      );
      return pageResponse(page) as never;
    },
  );

  mountReadById(app, guards, {
    path: '/v1/provisioning/plans/{id}',
    operationId: 'getProvisioningPlan',
    tags: ['provisioning'],
    summary:
      'State of a plan: running | completed | failed | terminated, with each task, logs and errors',
    maxIdLength: MAX_ENVIRONMENT_LENGTH,
    found: { description: 'The plan', schema: ProvisioningPlanSchema },
    notFound: 'No such plan',
    read: (id) => governance.coordinator.getPlan(id),
  });
}
