import { EvaluationResultSubmissionSchema } from '@dcg/contract-schema';
import { collectBoundedPage, type Governance, MAX_ID_LENGTH } from '@dcg/governance';
import { bearerGuarded, openApiJson, openApiProblem } from '@dcg/http-kit';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import type { GovernanceEnv } from '../app-env';
import { assertPolicyAllowed, type Guards } from '../auth';
import type { GovernanceMetricsRecorder } from '../governance-metrics';
import { readJson } from '../governance-problems';
import { pageResponse } from '../page-response';
import { guardedProblems } from './guarded-problems';
import { jsonSchemaComponent } from './json-schema-component';
import {
  AcceptedEvaluationResultSchema,
  bearerSecurity,
  EnvironmentSchema,
  idPathParams,
  PagingQuerySchema,
  ResultHistoryPageSchema,
} from './openapi-schemas';

const PATH = '/v1/computational-governance/policies/{policyId}/evaluation-results';

/**
 * Evaluation results: guardians submit (`POST …/policies/{policyId}/evaluation-results?environment=`);
 * the history of a data contract is paged.
 *
 * @example
 * mountEvaluationResultRoutes(app, { governance, guards });
 */
export function mountEvaluationResultRoutes(
  app: OpenAPIHono<GovernanceEnv>,
  deps: {
    governance: Governance;
    guards: Guards;
    maxBodyBytes: number;
    maxPageBytes: number;
    recorder?: GovernanceMetricsRecorder;
  },
): void {
  const { governance, guards } = deps;

  const submissionSchema = jsonSchemaComponent(
    app,
    'EvaluationResultSubmission',
    EvaluationResultSubmissionSchema,
  );
  // Documented here, implemented by hand: details that break A4 are stored, not refused.
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: PATH,
    operationId: 'submitEvaluationResult',
    tags: ['evaluation results'],
    summary:
      'Submit the monitoring result of a data contract (an array of exactly one result). Details that do not conform to the details schema are stored and reported back.',
    security: bearerSecurity,
    request: {
      params: z.object({ policyId: z.string().meta({ param: { name: 'policyId', in: 'path' } }) }),
      query: z.object({ environment: z.string().min(1) }),
      body: {
        required: true,
        content: { 'application/json': { schema: submissionSchema } },
      },
    },
    responses: {
      201: openApiJson(
        'Stored and current for the data contract, policy and environment',
        AcceptedEvaluationResultSchema,
      ),
      400: openApiProblem(
        'No environment, or the body is not one result with a valid resource and result',
      ),
      ...guardedProblems({
        403: 'The key may not submit for this policy',
        404: 'No such policy',
      }),
      409: openApiProblem(
        'The policy is not passive, or no guardian deployed in the environment guards the data contract with this policy (the problem says what is deployed there; see `evaluationResults.acceptUnguarded`)',
      ),
    },
  });
  app.post(
    '/v1/computational-governance/policies/:policyId/evaluation-results',
    guards.authenticate,
    guards.role('guardian'),
    async (c) => {
      const policyId = c.req.param('policyId');
      assertPolicyAllowed(c.get('principal'), policyId);
      const environment = c.req.query('environment');
      const body = await readJson(c, deps.maxBodyBytes);
      const accepted = await governance.results.submit({ policyId, environment, body });
      deps.recorder?.resultAccepted(accepted.status);
      return c.json(accepted, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/computational-governance/data-contracts/{contractId}/evaluation-results',
      operationId: 'listEvaluationResults',
      tags: ['evaluation results'],
      summary: 'History of the results of a data contract, newest first',
      ...bearerGuarded(guards.authenticate),
      request: {
        params: idPathParams('contractId', MAX_ID_LENGTH),
        query: PagingQuerySchema.extend({
          environment: EnvironmentSchema.optional(),
          policyId: z.string().min(1).max(MAX_ID_LENGTH).optional(),
        }),
      },
      responses: {
        200: openApiJson('One page of results', ResultHistoryPageSchema),
        ...guardedProblems({ 400: 'Invalid paging' }),
      },
    }),
    async (c) => {
      const { contractId } = c.req.valid('param');
      const q = c.req.valid('query');
      // Results can be megabytes each: the page is cut to limits.maxPageBytes and streamed.
      const page = await collectBoundedPage(
        (limit, offset) =>
          governance.results.history(contractId, {
            limit,
            offset,
            ...(q.environment === undefined ? {} : { environment: q.environment }),
            ...(q.policyId === undefined ? {} : { policyId: q.policyId }),
          }),
        { limit: q.limit, offset: q.offset, maxBytes: deps.maxPageBytes },
      );
      return pageResponse(page) as never;
    },
  );
}
