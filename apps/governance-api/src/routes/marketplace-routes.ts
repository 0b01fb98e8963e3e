import type { Governance } from '@dcg/governance';
import { findDataContract, MAX_ID_LENGTH } from '@dcg/governance';
import { openApiJson, openApiProblem, openApiProblems, ProblemError } from '@dcg/http-kit';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import type { GovernanceEnv } from '../app-env';
import { streamJsonList } from '../page-response';
import {
  ContractComplianceViewSchema,
  DeployedDescriptorViewSchema,
  EnvironmentSchema,
  idPathParams,
  MarketplaceInstanceListViewSchema,
  MarketplaceInstanceViewSchema,
} from './openapi-schemas';

/**
 * The marketplace read API: instances per environment, their deployed descriptors (without
 * private info) and the compliance of a data contract. Public like the marketplace pages.
 *
 * @example
 * mountMarketplaceRoutes(app, { governance });
 */
export function mountMarketplaceRoutes(
  app: OpenAPIHono<GovernanceEnv>,
  deps: { governance: Governance },
): void {
  const { governance } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/marketplace/instances',
      operationId: 'listMarketplaceInstances',
      tags: ['marketplace'],
      summary: 'Deployed systems with their components and contract status',
      request: { query: z.object({ environment: EnvironmentSchema.optional() }) },
      responses: {
        200: {
          description: 'The instances',
          content: {
            'application/json': {
              schema: MarketplaceInstanceListViewSchema,
            },
          },
        },
        400: openApiProblem('Invalid environment'),
      },
    }),
    async (c) => {
      const { environment } = c.req.valid('query');
      const data = await governance.marketplace.listInstances(
        environment === undefined ? {} : { environment },
      );
      // Streamed item by item: the list is as long as the number of deployed systems.
      return streamJsonList(data.map((instance) => JSON.stringify(instance))) as never;
    },
  );

  // The reads of one deployed system: by id, in one environment or its latest deployment.
  const systemRequest = {
    params: idPathParams('systemId', MAX_ID_LENGTH),
    query: z.object({ environment: EnvironmentSchema.optional() }),
  };
  const problems = openApiProblems({
    400: 'Invalid system id or environment',
    404: 'Not deployed',
  });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/marketplace/instances/{systemId}',
      operationId: 'getMarketplaceInstance',
      tags: ['marketplace'],
      summary: 'One deployed system (latest deployment when no environment is given)',
      request: systemRequest,
      responses: {
        200: openApiJson('The instance', MarketplaceInstanceViewSchema),
        ...problems,
      },
    }),
    async (c) => {
      const { systemId } = c.req.valid('param');
      const { environment } = c.req.valid('query');
      const view = await governance.marketplace.getInstance(systemId, environment);
      if (!view) throw notDeployed(systemId, environment);
      return c.json(view, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/marketplace/instances/{systemId}/descriptor',
      operationId: 'getMarketplaceInstanceDescriptor',
      tags: ['marketplace'],
      summary:
        'The descriptor of a deployed system as deployed, with public info (latest deployment when no environment is given)',
      description:
        "Each component's `info.publicInfo` from its tech adapter is kept; `info.privateInfo` is left out (the provisioning API, behind a key, has it).",
      request: systemRequest,
      responses: {
        200: openApiJson(
          'The deployed descriptor and the plan that deployed it',
          DeployedDescriptorViewSchema,
        ),
        ...problems,
      },
    }),
    async (c) => {
      const { systemId } = c.req.valid('param');
      const { environment } = c.req.valid('query');
      const view = await governance.marketplace.getDeployedDescriptor(systemId, environment);
      if (!view) throw notDeployed(systemId, environment);
      return c.json(view, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/marketplace/data-contracts/{contractId}/compliance',
      operationId: 'getDataContractCompliance',
      tags: ['marketplace'],
      summary: 'Compliance of a data contract: compliant | violated | unprocessable | unknown',
      request: {
        params: idPathParams('contractId', MAX_ID_LENGTH),
        query: z.object({ environment: EnvironmentSchema }),
      },
      responses: {
        200: openApiJson('The compliance', ContractComplianceViewSchema),
        ...openApiProblems({
          400: 'No environment',
          404: 'Not a data contract known in the environment',
        }),
      },
    }),
    async (c) => {
      const { contractId } = c.req.valid('param');
      const { environment } = c.req.valid('query');
      // The same rule as the contract page: unknown ids and non-contract components are 404.
      const found = await findDataContract(governance.marketplace, contractId, environment);
      if (found.kind === 'unknown') {
        throw new ProblemError({
          status: 404,
          title: 'Not Found',
          detail: `No data contract "${contractId}" is deployed or reported on in environment "${environment}"`,
        });
      }
      if (found.kind === 'not-a-data-contract') {
        throw new ProblemError({
          status: 404,
          title: 'Not Found',
          detail: `"${contractId}" is a component of system "${found.instance.systemId}" in environment "${environment}" but not a data contract`,
        });
      }
      return c.json(found.compliance, 200);
    },
  );
}

function notDeployed(systemId: string, environment: string | undefined): ProblemError {
  return new ProblemError({
    status: 404,
    title: 'Not Found',
    detail: `System "${systemId}" is not deployed${environment === undefined ? '' : ` in environment "${environment}"`}`,
  });
}
