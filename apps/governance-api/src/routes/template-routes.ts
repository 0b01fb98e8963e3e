import { InfrastructureTemplateSchema } from '@dcg/contract-schema';
import type { Governance } from '@dcg/governance';
import { MAX_ID_LENGTH } from '@dcg/governance';
import { bearerGuarded, openApiJson, openApiProblem, ProblemError } from '@dcg/http-kit';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import type { GovernanceEnv } from '../app-env';
import type { Guards } from '../auth';
import { readJson } from '../governance-problems';
import { guardedProblems } from './guarded-problems';
import { jsonSchemaComponent } from './json-schema-component';
import {
  bearerSecurity,
  EnvironmentSchema,
  idPathParams,
  RegisteredTemplateSchema,
} from './openapi-schemas';

const registerResponses = {
  200: openApiJson('The template was updated', RegisteredTemplateSchema),
  201: openApiJson('The template was registered', RegisteredTemplateSchema),
  ...guardedProblems({
    400: 'The body is not a valid template',
    403: 'The key is not a platform-admin key',
  }),
  422: openApiProblem(
    'Two policies for one resource type, or a referenced policy that is missing or not passive',
  ),
};

/**
 * Infrastructure templates: `POST /v1/infrastructure-templates` (and the established
 * `POST /api/builder/register`), `GET /v1/infrastructure-templates/{id}`.
 *
 * @example
 * mountTemplateRoutes(app, { governance, guards });
 */
export function mountTemplateRoutes(
  app: OpenAPIHono<GovernanceEnv>,
  deps: { governance: Governance; guards: Guards; maxBodyBytes: number },
): void {
  const { governance, guards } = deps;
  const register = async (c: Context<GovernanceEnv>) => {
    const body = await readJson(c, deps.maxBodyBytes);
    const registered = await governance.templates.register(body);
    const created = registered.registeredAt === registered.updatedAt;
    if (created)
      c.header(
        'Location',
        `/v1/infrastructure-templates/${encodeURIComponent(registered.template.id)}`,
      );
    return c.json(registered, created ? 201 : 200);
  };
  const templateSchema = jsonSchemaComponent(
    app,
    'InfrastructureTemplate',
    InfrastructureTemplateSchema,
  );
  for (const path of ['/v1/infrastructure-templates', '/api/builder/register']) {
    // Documented here, implemented by hand: the domain tells 400 (shape) from 422 (rules).
    app.openAPIRegistry.registerPath({
      method: 'post',
      path,
      operationId:
        path === '/api/builder/register'
          ? 'registerTemplateBuilder'
          : 'registerInfrastructureTemplate',
      tags: ['templates'],
      summary:
        path === '/api/builder/register'
          ? 'Register a template (established path, same as POST /v1/infrastructure-templates)'
          : 'Register or update an infrastructure template; properties.dataContractGuardian makes a guardian template',
      security: bearerSecurity,
      request: {
        body: {
          required: true,
          content: { 'application/json': { schema: templateSchema } },
        },
      },
      responses: registerResponses,
    });
    app.post(path, guards.authenticate, guards.role('platform-admin'), register);
  }

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/infrastructure-templates/{id}',
      operationId: 'getInfrastructureTemplate',
      tags: ['templates'],
      summary:
        'A registered template with its guardian policies: the registration for `environment` (else the one without an environment); without `environment`, the one without an environment or the only one',
      ...bearerGuarded(guards.authenticate),
      request: {
        params: idPathParams('id', MAX_ID_LENGTH),
        query: z.object({ environment: EnvironmentSchema.optional() }),
      },
      responses: {
        200: openApiJson('The template', RegisteredTemplateSchema),
        ...guardedProblems({ 404: 'No such template' }),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { environment } = c.req.valid('query');
      const registered = await governance.templates.get(id, environment);
      if (!registered) {
        const environments = await governance.templates.environments(id);
        const registeredFor = environments.map((e) => (e === null ? 'every environment' : e));
        throw new ProblemError({
          status: 404,
          title: 'Not Found',
          detail:
            environments.length === 0
              ? `No infrastructure template with id "${id}"`
              : `Infrastructure template "${id}" is not registered ${environment === undefined ? 'without an environment' : `for environment "${environment}"`}; it is registered for: ${registeredFor.join(', ')} (ask with ?environment=)`,
        });
      }
      return c.json(registered, 200);
    },
  );
}
