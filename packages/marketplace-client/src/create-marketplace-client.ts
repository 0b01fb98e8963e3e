import {
  type CallOptions,
  type HttpClientOptions,
  httpClientOptionsShape,
} from '@dcg/client-transport';
import { MAX_ENVIRONMENT_LENGTH } from '@dcg/contract-schema';
import {
  type ContractCompliance,
  ContractComplianceSchema,
  type DeployedDescriptor,
  DeployedDescriptorSchema,
  type InstanceCompliance,
  InstanceComplianceSchema,
  MAX_SEARCH_OFFSET,
  type MarketplaceInstance,
  MarketplaceInstanceListSchema,
  MarketplaceInstanceSchema,
  POLICY_STATUSES,
  POLICY_TRIGGERS,
  type PolicyPage,
  PolicyPageSchema,
  type SearchHit,
  type SearchResult,
  SearchResultSchema,
} from '@dcg/governance-schema';
import * as z from 'zod/mini';
import { createTransport, type Transport } from './http-transport';
import { MarketplaceClientError, MarketplaceProblemError } from './marketplace-client-error';

/**
 * Options of {@link createMarketplaceClient}: where governance-api is (policies need an
 * `apiKey`) and the transport's limits (`maxResponseBytes`: default 16 MiB; a failed GET is
 * retried on network errors, 408, 429 and 5xx).
 */
export type MarketplaceClientOptions = HttpClientOptions;

/** Options every call takes; an aborted call rejects with code `aborted`. */
export type { CallOptions };

/** Filter and paging of {@link MarketplaceClient.listPolicies}. */
export interface PolicyQuery extends CallOptions {
  readonly resourceType?: string | undefined;
  readonly environment?: string | undefined;
  readonly trigger?: 'active' | 'passive' | undefined;
  readonly status?: 'draft' | 'grace' | 'enabled' | undefined;
  readonly text?: string | undefined;
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
}

/**
 * Filter and paging of {@link MarketplaceClient.search}: every environment unless `environment`
 * is given; `limit` 1–50 (default 10); `offset` 0–950, the `nextOffset` of the previous page.
 */
export interface MarketplaceSearchOptions extends CallOptions {
  readonly environment?: string | undefined;
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
  /** System or component kinds (any of them). */
  readonly kind?: readonly string[] | undefined;
  /** Instance compliance states (any of them). */
  readonly compliance?: readonly InstanceCompliance[] | undefined;
}

/**
 * One hit of {@link MarketplaceClient.search}: governance-api's `SearchHit`, with why it matched
 * (`matchedBy`, `why`) and its data contracts with their states (`dataContracts`, `compliance`).
 */
export type MarketplaceSearchHit = SearchHit;

/**
 * The answer of {@link MarketplaceClient.search}: governance-api's `SearchResult`. `mode` is
 * `hybrid` when meaning (embeddings) took part, `lexical` (with `fallback` saying why) when only
 * words did; `nextOffset` when more hits follow.
 */
export type MarketplaceSearchResult = SearchResult;

/** The typed client of governance-api's marketplace read API. */
export interface MarketplaceClient {
  readonly baseUrl: string;
  /** Deployed systems, optionally of one environment. */
  listInstances(
    options?: CallOptions & { environment?: string | undefined },
  ): Promise<MarketplaceInstance[]>;
  /** One deployed system (latest deployment when no environment is given); null when not deployed. */
  getInstance(
    systemId: string,
    options?: CallOptions & { environment?: string | undefined },
  ): Promise<MarketplaceInstance | null>;
  /** Compliance of a data contract in an environment. */
  getContractCompliance(
    contractId: string,
    environment: string,
    options?: CallOptions,
  ): Promise<ContractCompliance>;
  /** One page of policies (needs an API key). */
  listPolicies(query?: PolicyQuery): Promise<PolicyPage>;
  /**
   * The descriptor of a deployed system as deployed, with its components' public info (latest
   * deployment when no environment is given); null when it is not deployed (there).
   */
  getDeployedDescriptor(
    systemId: string,
    environment?: string | undefined,
    options?: CallOptions,
  ): Promise<DeployedDescriptor | null>;
  /**
   * Searches the marketplace by meaning and by words (governance-api's `GET
   * /v1/marketplace/search`): one page of hits over every environment, or one environment's.
   */
  search(query: string, options?: MarketplaceSearchOptions): Promise<MarketplaceSearchResult>;
}

const OptionsSchema = z.object(httpClientOptionsShape(16 * 1024 * 1024));

const Id = z.string().check(z.minLength(1), z.maxLength(500));
const Environment = z.string().check(z.minLength(1), z.maxLength(MAX_ENVIRONMENT_LENGTH));
const SearchArguments = z.object({
  query: z.string().check(z.trim(), z.minLength(1), z.maxLength(512)),
  environment: z.optional(Environment),
  limit: z.optional(z.int().check(z.gte(1), z.lte(50))),
  offset: z.optional(z.int().check(z.gte(0), z.lte(MAX_SEARCH_OFFSET))),
  kind: z.optional(
    z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(20)),
  ),
  compliance: z.optional(z.array(InstanceComplianceSchema).check(z.maxLength(20))),
});

/**
 * Creates a typed client of governance-api's marketplace (instances, deployed descriptors,
 * contract compliance, policies, search). Answers are validated; failures reject with a `MarketplaceClientError`.
 *
 * @example
 * const marketplace = createMarketplaceClient({ baseUrl: 'http://127.0.0.1:8080' });
 * const { hits, nextOffset } = await marketplace.search('money owed by clients');
 * console.log(hits[0]?.name, hits[0]?.dataContracts, nextOffset);
 */
export function createMarketplaceClient(options: MarketplaceClientOptions): MarketplaceClient {
  const parsed = OptionsSchema.safeParse(options);
  if (!parsed.success) throw invalidArgument('options', parsed.error);
  const settings = parsed.data;
  const get: Transport = createTransport({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    timeoutMs: settings.timeoutMs,
    retries: settings.retries,
    maxResponseBytes: settings.maxResponseBytes,
    fetch: settings.fetch,
  });
  const listInstances: MarketplaceClient['listInstances'] = async (callOptions = {}) => {
    check('listInstances', z.object({ environment: z.optional(Environment) }), {
      environment: callOptions.environment,
    });
    const answer = await get({
      path: 'v1/marketplace/instances',
      searchParams: { environment: callOptions.environment },
      schema: MarketplaceInstanceListSchema,
      signal: callOptions.signal,
    });
    return answer.data;
  };

  const search: MarketplaceClient['search'] = async (query, callOptions = {}) => {
    const input = check('search', SearchArguments, {
      query,
      environment: callOptions.environment,
      limit: callOptions.limit,
      offset: callOptions.offset,
      kind: callOptions.kind === undefined ? undefined : [...callOptions.kind],
      compliance: callOptions.compliance === undefined ? undefined : [...callOptions.compliance],
    });
    return get({
      path: 'v1/marketplace/search',
      searchParams: {
        q: input.query,
        environment: input.environment,
        limit: input.limit,
        offset: input.offset,
        kind: input.kind?.join(','),
        compliance: input.compliance?.join(','),
      },
      schema: SearchResultSchema,
      signal: callOptions.signal,
    });
  };

  return {
    baseUrl: settings.baseUrl,
    listInstances,
    search,
    async getInstance(systemId, callOptions = {}) {
      check('getInstance', z.object({ systemId: Id, environment: z.optional(Environment) }), {
        systemId,
        environment: callOptions.environment,
      });
      return nullWhenNotFound(
        get({
          path: `v1/marketplace/instances/${encodeURIComponent(systemId)}`,
          searchParams: { environment: callOptions.environment },
          schema: MarketplaceInstanceSchema,
          signal: callOptions.signal,
        }),
      );
    },
    async getDeployedDescriptor(systemId, environment, callOptions = {}) {
      check(
        'getDeployedDescriptor',
        z.object({ systemId: Id, environment: z.optional(Environment) }),
        { systemId, environment },
      );
      return nullWhenNotFound(
        get({
          path: `v1/marketplace/instances/${encodeURIComponent(systemId)}/descriptor`,
          searchParams: { environment },
          schema: DeployedDescriptorSchema,
          signal: callOptions.signal,
        }),
      );
    },
    async getContractCompliance(contractId, environment, callOptions = {}) {
      check('getContractCompliance', z.object({ contractId: Id, environment: Environment }), {
        contractId,
        environment,
      });
      return get({
        path: `v1/marketplace/data-contracts/${encodeURIComponent(contractId)}/compliance`,
        searchParams: { environment },
        schema: ContractComplianceSchema,
        signal: callOptions.signal,
      });
    },
    async listPolicies(query = {}) {
      const q = check(
        'listPolicies',
        z.object({
          resourceType: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
          environment: z.optional(Environment),
          trigger: z.optional(z.enum(POLICY_TRIGGERS)),
          status: z.optional(z.enum(POLICY_STATUSES)),
          text: z.optional(z.string().check(z.maxLength(500))),
          limit: z.optional(z.int().check(z.gte(1), z.lte(1000))),
          offset: z.optional(z.int().check(z.gte(0))),
        }),
        { ...query, signal: undefined },
      );
      return get({
        path: 'v1/computational-governance/policies',
        searchParams: q,
        schema: PolicyPageSchema,
        signal: query.signal,
      });
    },
  };
}

/** A 404 problem (not deployed) answers null; every other failure rejects. */
async function nullWhenNotFound<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof MarketplaceProblemError && error.status === 404) return null;
    throw error;
  }
}

function check<S extends z.core.$ZodType>(call: string, schema: S, value: unknown): z.output<S> {
  const parsed = z.safeParse(schema, value);
  if (!parsed.success) throw invalidArgument(call, parsed.error);
  return parsed.data;
}

function invalidArgument(call: string, error: z.core.$ZodError): MarketplaceClientError {
  const issues = error.issues.map((issue) => ({
    code: issue.code,
    path: issue.path.map((p) => (typeof p === 'number' ? p : String(p))),
    message: issue.message,
  }));
  return new MarketplaceClientError(
    'invalid_argument',
    `${call}: ${issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    { issues },
  );
}
