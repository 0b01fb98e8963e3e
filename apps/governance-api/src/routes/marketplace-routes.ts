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

  // The reads of one deployed system: by id, in one environment or its latest deployment, with
  // the same parameters and problems (404: not deployed there).
  const systemRead = <S extends z.ZodType>(
    route: { path: string; operationId: string; summary: string; description?: string },
    response: { description: string; schema: S },
    read: (systemId: string, environment?: string) => Promise<z.output<S> | null>,
  ) =>
    app.openapi(
      createRoute({
        method: 'get',
        tags: ['marketplace'],
        ...route,
        request: {
          params: idPathParams('systemId', MAX_ID_LENGTH),
          query: z.object({ environment: EnvironmentSchema.optional() }),
        },
        responses: {
          200: openApiJson(response.description, response.schema),
          ...openApiProblems({ 400: 'Invalid system id or environment', 404: 'Not deployed' }),
        },
      }),
      async (c) => {
        const { systemId } = c.req.valid('param');
        const { environment } = c.req.valid('query');
        const view = await read(systemId, environment);
        if (!view) throw notDeployed(systemId, environment);
        return c.json(view, 200) as never;
      },
    );

  systemRead(
    {
      path: '/v1/marketplace/instances/{systemId}',
      operationId: 'getMarketplaceInstance',
      summary: 'One deployed system (latest deployment when no environment is given)',
    },
    { description: 'The instance', schema: MarketplaceInstanceViewSchema },
    (systemId, environment) => governance.marketplace.getInstance(systemId, environment),
  );

  systemRead(
    {
      path: '/v1/marketplace/instances/{systemId}/descriptor',
      operationId: 'getMarketplaceInstanceDescriptor',
      summary:
        'The descriptor of a deployed system as deployed, with public info (latest deployment when no environment is given)',
      description:
        "Each component's `info.publicInfo` from its tech adapter is kept; `info.privateInfo` is left out (the provisioning API, behind a key, has it).",
    },
    {
      description: 'The deployed descriptor and the plan that deployed it',
      schema: DeployedDescriptorViewSchema,
    },
    (systemId, environment) => governance.marketplace.getDeployedDescriptor(systemId, environment),
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
