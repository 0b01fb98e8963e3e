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
  type MarketplaceInstance,
  MarketplaceInstanceListSchema,
  MarketplaceInstanceSchema,
  POLICY_STATUSES,
  POLICY_TRIGGERS,
  type PolicyPage,
  PolicyPageSchema,
  SearchResultSchema,
} from '@dcg/governance-schema';
import * as z from 'zod/mini';
import { createTransport, type Transport } from './http-transport';
import { rankLexically } from './lexical-search';
import { MarketplaceClientError, MarketplaceProblemError } from './marketplace-client-error';

/**
 * Options of {@link createMarketplaceClient}: where governance-api is (policies need an
 * `apiKey`), the transport's limits (a failed GET is retried on network errors, 408, 429 and 5xx)
 * and how search behaves.
 */
export interface MarketplaceClientOptions extends HttpClientOptions {
  /** Largest answer accepted, in bytes. Default 16 MiB. */
  readonly maxResponseBytes?: number | undefined;
  /**
   * After governance-api answered that it has no search endpoint (404, 405, 501), how long to
   * use lexical search before asking it again. Default 60 000 ms.
   */
  readonly searchProbeIntervalMs?: number | undefined;
}

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

/** One hit of {@link MarketplaceClient.search}. */
export interface MarketplaceSearchHit {
  readonly systemId: string;
  readonly environment?: string | undefined;
  readonly name?: string | undefined;
  readonly kind?: string | undefined;
  readonly score?: number | undefined;
  /**
   * Why it matched, when the search says (governance-api's search: `exact-urn`, `exact-name`,
   * `words`, `meaning`; this client's ranking: the fields that matched).
   */
  readonly matched?: readonly string[] | undefined;
  /** The reason in a sentence, when governance-api's search answered. */
  readonly why?: string | undefined;
  /** The instance, when the search answered it. */
  readonly instance?: MarketplaceInstance | undefined;
}

/** The answer of {@link MarketplaceClient.search}. */
export interface MarketplaceSearchResult {
  /**
   * As governance-api's search says: `hybrid` when meaning (embeddings) took part, `lexical` when
   * only words did (also when this client ranked, `fallbackReason` saying why).
   */
  readonly mode: 'hybrid' | 'lexical';
  /** Set when meaning took no part, saying why. */
  readonly fallbackReason?: string | undefined;
  readonly hits: readonly MarketplaceSearchHit[];
}

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
   * Searches the marketplace: governance-api's `GET /v1/marketplace/search` when it exists, else
   * lexical ranking of the instances of the environment here.
   */
  search(
    query: string,
    options?: CallOptions & { environment?: string | undefined; limit?: number | undefined },
  ): Promise<MarketplaceSearchResult>;
}

const OptionsSchema = z.object({
  ...httpClientOptionsShape(16 * 1024 * 1024),
  searchProbeIntervalMs: z._default(z.int().check(z.gte(0)), 60_000),
});

const Id = z.string().check(z.minLength(1), z.maxLength(500));
const Environment = z.string().check(z.minLength(1), z.maxLength(MAX_ENVIRONMENT_LENGTH));
const SearchQuery = z.string().check(z.trim(), z.minLength(1), z.maxLength(500));
const Limit = z.int().check(z.gte(1), z.lte(100));

/**
 * Creates a typed client of governance-api's marketplace (instances, deployed descriptors,
 * contract compliance, policies, search). Answers are validated; failures reject with a `MarketplaceClientError`.
 *
 * @example
 * const marketplace = createMarketplaceClient({ baseUrl: 'http://127.0.0.1:8080' });
 * const { hits } = await marketplace.search('orders', { environment: 'production' });
 * const compliance = await marketplace.getContractCompliance(hits[0]!.systemId, 'production');
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
  let searchAbsentUntil = 0;

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
    const input = check(
      'search',
      z.object({ query: SearchQuery, environment: z.optional(Environment), limit: Limit }),
      { query, environment: callOptions.environment, limit: callOptions.limit ?? 10 },
    );
    // governance-api's search ranks within one environment; across all of them this client ranks.
    let fallbackReason =
      input.environment === undefined
        ? 'the marketplace search ranks within one environment and none was given'
        : 'the marketplace has no search endpoint';
    if (input.environment !== undefined && Date.now() >= searchAbsentUntil) {
      try {
        const answer = await get({
          path: 'v1/marketplace/search',
          searchParams: { q: input.query, environment: input.environment, limit: input.limit },
          schema: SearchResultSchema,
          signal: callOptions.signal,
        });
        const hits = answer.hits.slice(0, input.limit);
        // The search answers ids, names and reasons; the instances (components, contract states)
        // come from one read per hit, in parallel: reading the whole list instead cost about
        // 0.7 s of CPU per search at 10,000 instances (mcp-server's bench).
        const read = await Promise.all(
          hits.map((hit) =>
            nullWhenNotFound(
              get({
                path: `v1/marketplace/instances/${encodeURIComponent(hit.systemId)}`,
                searchParams: { environment: hit.environment },
                schema: MarketplaceInstanceSchema,
                signal: callOptions.signal,
              }),
            ),
          ),
        );
        const listed = read.filter((instance) => instance !== null);
        const byKey = new Map(listed.map((i) => [`${i.environment}\u0000${i.systemId}`, i]));
        return {
          mode: answer.mode,
          ...(answer.mode === 'lexical'
            ? { fallbackReason: answer.fallback ?? 'the marketplace search answered lexically' }
            : {}),
          hits: hits.map((hit) => {
            const instance = byKey.get(`${hit.environment}\u0000${hit.systemId}`);
            return { ...hit, matched: hit.matchedBy, ...(instance ? { instance } : {}) };
          }),
        };
      } catch (error) {
        if (error instanceof MarketplaceProblemError && [404, 405, 501].includes(error.status)) {
          searchAbsentUntil = Date.now() + settings.searchProbeIntervalMs;
        } else if (MarketplaceClientError.isInstance(error) && error.code === 'aborted') {
          throw error;
        } else if (
          error instanceof MarketplaceProblemError &&
          error.status < 500 &&
          error.status !== 429
        ) {
          // The endpoint exists and refused this query (e.g. 400): that answer is the caller's.
          throw error;
        } else {
          fallbackReason = `the marketplace search failed (${error instanceof Error ? error.message : String(error)})`;
        }
      }
    }
    const instances = await listInstances({
      environment: input.environment,
      signal: callOptions.signal,
    });
    return {
      mode: 'lexical',
      fallbackReason,
      hits: rankLexically(input.query, instances, input.limit).map((hit) => ({
        systemId: hit.instance.systemId,
        environment: hit.instance.environment,
        name: hit.instance.name,
        kind: hit.instance.kind,
        score: hit.score,
        matched: hit.matched,
        instance: hit.instance,
      })),
    };
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
