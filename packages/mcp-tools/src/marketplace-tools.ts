import { failingRequirements, MAX_ENVIRONMENT_LENGTH } from '@dcg/contract-schema';
import { ContractComplianceSchema, PolicySchema, SearchHitSchema } from '@dcg/governance-schema';
import type { MarketplaceSearchHit } from '@dcg/marketplace-client';
import { type McpServer, requireScopes } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { omit } from 'zod/mini';
import { describeCompliance } from './compliance-summary';
import type { DcgMcpDeps } from './dcg-mcp-deps';
import { decodeCursor, encodeCursor, fitItems } from './paging';
import { SCOPES } from './scopes';
import { ComponentViewSchema, readSystem, SystemViewSchema } from './system-view';
import { ToolInputError, withToolErrors } from './tool-errors';
import { toolOutputSchema } from './tool-output-schema';
import { toolResult, toolResultWithin } from './tool-result';
import { systemOfComponent } from './urns';

const readOnlyClosed = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  // Every answer comes from this platform's own marketplace, never from the open world.
  openWorldHint: false,
} as const;

const Environment = z
  .string()
  .min(1)
  .max(MAX_ENVIRONMENT_LENGTH)
  .describe('Deployment environment, e.g. "production" or "development"');
const Urn = (what: string) => z.string().min(1).max(500).describe(what);
const Cursor = z
  .string()
  .max(2000)
  .optional()
  .describe('The nextCursor of a previous answer, to read the next page');

/** A hit as the tool answers it: the API's hit without the ranks behind it (`why` says them). */
const ToolSearchHitSchema = omit(SearchHitSchema, { lexical: true, vector: true });
type ToolSearchHit = z.infer<typeof ToolSearchHitSchema>;

const FailingRequirementSchema = z.object({
  path: z.array(z.string()),
  name: z.string().optional(),
  description: z.string().optional(),
  issues: z.array(z.string()),
});

// governance-api's wire shapes (@dcg/governance-schema), strict here (a tool's output schema lists every member it answers).
const compliance = ContractComplianceSchema.shape;
const ComplianceOutputSchema = z.object({
  contractId: compliance.contractId,
  environment: compliance.environment,
  status: compliance.status,
  evaluatedAt: compliance.evaluatedAt,
  policyId: compliance.policyId,
  errorSummary: z.string().nullable(),
  counts: compliance.counts,
  failingRequirements: z.array(FailingRequirementSchema),
  message: compliance.message,
  schemaErrors: compliance.schemaErrors,
  explanation: z.string(),
});

const PolicyOutputSchema = z.object(PolicySchema.shape).pick({
  id: true,
  name: true,
  description: true,
  resourceType: true,
  trigger: true,
  status: true,
  environment: true,
});

/**
 * Registers the marketplace tools: search_marketplace, get_system, get_component,
 * get_contract_compliance and list_policies. Each needs the `marketplace:read` scope.
 *
 * @example
 * registerMarketplaceTools(server, deps);
 */
export function registerMarketplaceTools(server: McpServer, deps: DcgMcpDeps): void {
  const { marketplace, limits } = deps;
  const scopeChallenge = requireScopes(SCOPES.marketplaceRead);
  const Limit = z
    .number()
    .int()
    .min(1)
    .max(limits.maxPageSize)
    .optional()
    .describe(`Results per page (default ${limits.defaultPageSize})`);

  // governance-api answers at most 50 hits a page.
  const SearchLimit = z
    .number()
    .int()
    .min(1)
    .max(Math.min(50, limits.maxPageSize))
    .optional()
    .describe(`Results per page (default ${Math.min(50, limits.defaultPageSize)})`);

  server.registerTool(
    'search_marketplace',
    {
      title: 'Search the marketplace',
      description:
        'Finds deployed systems (data products) in the marketplace by meaning and by name, id (URN), domain or component, across every environment unless one is given. Answers the best matches first, each with why it matched, its environment and the compliance of its data contracts; `mode` says whether meaning took part (`hybrid`) or only words did (`lexical`, with `fallback` saying why).',
      inputSchema: z.object({
        query: z
          .string()
          .trim()
          .min(1)
          .max(512)
          .describe('What to look for, in plain words (e.g. "money owed by clients") or a URN'),
        environment: Environment.optional().describe(
          'Only systems deployed in this environment (e.g. "production"); all environments when absent',
        ),
        limit: SearchLimit,
        cursor: Cursor,
      }),
      outputSchema: toolOutputSchema(
        z.object({
          mode: z.enum(['hybrid', 'lexical']),
          fallback: z.string().optional(),
          suggestions: z.array(z.string()).optional(),
          hits: z.array(ToolSearchHitSchema),
          nextCursor: z.string().optional(),
        }),
      ),
      annotations: readOnlyClosed,
      scopeChallenge,
    },
    withToolErrors(async ({ query, environment, limit, cursor }, ctx) => {
      const size = limit ?? Math.min(50, limits.defaultPageSize);
      const key = JSON.stringify(['search', query, environment ?? null, size]);
      const offset = decodeCursor(cursor, key);
      // One page of governance-api's ranking: the same code path as its API and its page.
      const result = await marketplace.search(query, {
        environment,
        limit: size,
        offset,
        signal: ctx.mcpReq.signal,
      });
      const hits = result.hits.map(toSearchHit);
      const build = (some: readonly ToolSearchHit[], next: number | undefined) => ({
        mode: result.mode,
        ...(result.fallback === undefined ? {} : { fallback: result.fallback }),
        ...(result.suggestions === undefined ? {} : { suggestions: [...result.suggestions] }),
        hits: [...some],
        ...(next === undefined ? {} : { nextCursor: encodeCursor(next, key) }),
      });
      // Cut short by the byte limit: the next page starts after what fitted.
      const { answer, json } = fitItems(
        hits,
        (some) => build(some, some.length < hits.length ? offset + some.length : result.nextOffset),
        limits.maxResultBytes,
      );
      return toolResult(
        answer,
        `${answer.hits.length} system(s) found by ${result.mode} search${environment === undefined ? ' in all environments' : ` in ${environment}`}${answer.nextCursor ? '; more with nextCursor' : ''}.`,
        json,
      );
    }),
  );

  server.registerTool(
    'get_system',
    {
      title: 'Get a system',
      description:
        'Reads one deployed system (data product) by its URN: its output ports with their data contracts (schema, SLA, terms), its other components, and the compliance of each data contract. Without an environment, the latest deployment.',
      inputSchema: z.object({
        systemId: Urn('System URN, e.g. urn:dmb:dp:finance:orders:0'),
        environment: Environment.optional(),
      }),
      outputSchema: toolOutputSchema(SystemViewSchema),
      annotations: readOnlyClosed,
      scopeChallenge,
    },
    withToolErrors(async ({ systemId, environment }, ctx) => {
      const view = await readSystem(marketplace, systemId, environment, ctx.mcpReq.signal);
      if (!view) throw new ToolInputError(notDeployed(systemId, environment));
      return toolResultWithin(
        limits.maxResultBytes,
        view,
        `${view.name} (${view.systemId}) in ${view.environment}: ${view.outputPorts.length} output port(s).`,
        'read its output ports one by one with get_component',
      );
    }),
  );

  server.registerTool(
    'get_component',
    {
      title: 'Get a component',
      description:
        'Reads one component (e.g. an output port) of a deployed system by its URN: its data contract (schema, SLA, terms) and, for a monitored data contract, its compliance with the failing requirements.',
      inputSchema: z.object({
        componentId: Urn('Component URN, e.g. urn:dmb:cmp:finance:orders:0:orders-port'),
        environment: Environment.optional(),
      }),
      outputSchema: toolOutputSchema(
        z.object({
          systemId: z.string(),
          systemName: z.string(),
          environment: z.string(),
          component: ComponentViewSchema,
          compliance: ComplianceOutputSchema.optional(),
          note: z.string().optional(),
        }),
      ),
      annotations: readOnlyClosed,
      scopeChallenge,
    },
    withToolErrors(async ({ componentId, environment }, ctx) => {
      const systemId = systemOfComponent(componentId);
      if (!systemId) {
        throw new ToolInputError(
          `"${componentId}" is not a component URN (urn:dmb:cmp:<domain>:<system>:<major>:<component>)`,
        );
      }
      const view = await readSystem(marketplace, systemId, environment, ctx.mcpReq.signal);
      const component = view
        ? [...view.outputPorts, ...view.otherComponents].find((c) => c.id === componentId)
        : undefined;
      if (!view || !component) throw new ToolInputError(notDeployed(componentId, environment));
      const compliance = component.isDataContract
        ? complianceOutput(
            await marketplace.getContractCompliance(componentId, view.environment, {
              signal: ctx.mcpReq.signal,
            }),
          )
        : undefined;
      const answer = {
        systemId: view.systemId,
        systemName: view.name,
        environment: view.environment,
        component,
        ...(compliance ? { compliance } : {}),
        ...(view.note ? { note: view.note } : {}),
      };
      return toolResultWithin(
        limits.maxResultBytes,
        answer,
        `${component.name ?? component.id} of ${view.name} in ${view.environment}${compliance ? `: ${compliance.status}` : ''}.`,
        'the data contract of this component is too large to answer',
      );
    }),
  );

  server.registerTool(
    'get_contract_compliance',
    {
      title: 'Get the compliance of a data contract',
      description:
        'Tells whether a data contract (an output port URN) is compliant, violated, unprocessable or unknown in an environment, with its failing requirements (the most specific failing checks and their issues) and the error summary of the latest evaluation. Without an environment, the environment of the latest deployment of its system.',
      inputSchema: z.object({
        contractId: Urn(
          'Data contract (output port) URN, e.g. urn:dmb:cmp:finance:orders:0:orders-port',
        ),
        environment: Environment.optional(),
      }),
      outputSchema: toolOutputSchema(ComplianceOutputSchema),
      annotations: readOnlyClosed,
      scopeChallenge,
    },
    withToolErrors(async ({ contractId, environment }, ctx) => {
      let where = environment;
      if (where === undefined) {
        const systemId = systemOfComponent(contractId);
        const instance = systemId
          ? await marketplace.getInstance(systemId, { signal: ctx.mcpReq.signal })
          : null;
        if (!instance) {
          throw new ToolInputError(
            `The environment of "${contractId}" cannot be found (its system is not deployed); give the environment`,
          );
        }
        where = instance.environment;
      }
      const answer = complianceOutput(
        await marketplace.getContractCompliance(contractId, where, { signal: ctx.mcpReq.signal }),
      );
      const fitted = fitItems(
        answer.failingRequirements,
        (some) => ({ ...answer, failingRequirements: [...some] }),
        limits.maxResultBytes,
      );
      return toolResult(
        fitted.answer,
        answer.explanation.split('\n')[0] ?? answer.status,
        fitted.json,
      );
    }),
  );

  server.registerTool(
    'list_policies',
    {
      title: 'List the policies of a resource type',
      description:
        'Lists the computational governance policies that govern a resource type (e.g. "dataproduct"), optionally only those of one environment, status (draft, grace, enabled) or trigger (active: checked at deployment; passive: evaluated outside deployment, as guardians do).',
      inputSchema: z.object({
        resourceType: z
          .string()
          .trim()
          .min(1)
          .max(200)
          .describe('Resource type, e.g. "dataproduct"'),
        environment: Environment.optional(),
        status: z.enum(['draft', 'grace', 'enabled']).optional(),
        trigger: z.enum(['active', 'passive']).optional(),
        limit: Limit,
        cursor: Cursor,
      }),
      outputSchema: toolOutputSchema(
        z.object({
          policies: z.array(PolicyOutputSchema),
          total: z.number().int(),
          nextCursor: z.string().optional(),
        }),
      ),
      annotations: readOnlyClosed,
      scopeChallenge,
    },
    withToolErrors(async ({ resourceType, environment, status, trigger, limit, cursor }, ctx) => {
      const size = limit ?? limits.defaultPageSize;
      const key = JSON.stringify([
        'policies',
        resourceType,
        environment ?? null,
        status ?? null,
        trigger ?? null,
        size,
      ]);
      const offset = decodeCursor(cursor, key);
      const page = await marketplace.listPolicies({
        resourceType,
        environment,
        status,
        trigger,
        limit: size,
        offset,
        signal: ctx.mcpReq.signal,
      });
      const policies = page.data.map((p) => ({
        id: p.id,
        name: p.name,
        description: p.description,
        resourceType: p.resourceType,
        trigger: p.trigger,
        status: p.status,
        environment: p.environment,
      }));
      const total = page.meta.pagination.total;
      const build = (some: readonly (typeof policies)[number][], next: boolean) => ({
        policies: [...some],
        total,
        ...(next ? { nextCursor: encodeCursor(offset + some.length, key) } : {}),
      });
      const fitted = fitItems(policies, (some) => build(some, true), limits.maxResultBytes);
      const answer = build(
        policies.slice(0, fitted.count),
        offset + fitted.count < total && (fitted.count > 0 || policies.length === 0),
      );
      return toolResult(
        answer,
        `${answer.policies.length} of ${total} polic(ies) govern ${resourceType}.`,
      );
    }),
  );
}

function toSearchHit({ lexical, vector, ...hit }: MarketplaceSearchHit): ToolSearchHit {
  return hit;
}

/** The compliance answer of the tools and prompts. */
export function complianceOutput(
  compliance: Parameters<typeof describeCompliance>[0],
): z.infer<typeof ComplianceOutputSchema> {
  return {
    contractId: compliance.contractId,
    environment: compliance.environment,
    status: compliance.status,
    evaluatedAt: compliance.evaluatedAt,
    policyId: compliance.policyId,
    errorSummary: compliance.summary,
    counts: compliance.counts,
    failingRequirements: failingRequirements(compliance.tree).map((f) => ({
      path: [...f.path],
      ...(f.name === undefined ? {} : { name: f.name }),
      ...(f.description === undefined ? {} : { description: f.description }),
      issues: [...f.issues],
    })),
    ...(compliance.message === undefined ? {} : { message: compliance.message }),
    ...(compliance.schemaErrors === undefined ? {} : { schemaErrors: compliance.schemaErrors }),
    explanation: describeCompliance(compliance),
  };
}

function notDeployed(id: string, environment: string | undefined): string {
  return `"${id}" is not deployed${environment === undefined ? '' : ` in environment "${environment}"`}; search_marketplace finds what is`;
}
