import type { KgClient } from '@dcg/kg-client';
import type { MarketplaceClient } from '@dcg/marketplace-client';
import type { CacheHint } from '@modelcontextprotocol/server';
import type { ToolCallObserver } from './tool-call-observer';

/** Limits of what the tools answer. */
export interface DcgMcpLimits {
  /** Largest `structuredContent` of one tool answer, in bytes of JSON; longer lists are paged. */
  readonly maxResultBytes: number;
  /** Items per page when the caller gives no `limit`. */
  readonly defaultPageSize: number;
  /** Largest `limit` a caller may ask for. */
  readonly maxPageSize: number;
  /** Resources (systems and data contracts) per page of `resources/list`; `nextCursor` pages on. */
  readonly resourcesPageSize: number;
}

/** Cache hints of the 2026-07-28 cacheable results (lists and reads). */
export interface DcgMcpCacheHints {
  /** tools/list, prompts/list, resources/templates/list, server/discover: fixed per server version. */
  readonly staticLists: CacheHint;
  /** resources/list and resources/read: they change with every deployment and evaluation. */
  readonly marketplaceData: CacheHint;
}

/**
 * What the dcg MCP tools, resources and prompts read from.
 *
 * @example
 * const deps: DcgMcpDeps = { marketplace, kg, limits: DEFAULT_LIMITS, cacheHints: DEFAULT_CACHE_HINTS };
 */
export interface DcgMcpDeps {
  readonly marketplace: MarketplaceClient;
  readonly kg: KgClient;
  readonly limits: DcgMcpLimits;
  readonly cacheHints: DcgMcpCacheHints;
  /** Name and version the server reports. */
  readonly serverInfo?: { name: string; version: string; title?: string };
  /** Called once per tool call with its outcome, error code and time (e.g. for metrics). */
  readonly observeToolCall?: ToolCallObserver;
}

/** Defaults of {@link DcgMcpLimits}. */
export const DEFAULT_LIMITS: DcgMcpLimits = {
  maxResultBytes: 256 * 1024,
  defaultPageSize: 10,
  maxPageSize: 100,
  resourcesPageSize: 100,
};

/**
 * Defaults of {@link DcgMcpCacheHints}: lists of tools and prompts are the same for every caller of
 * one server version (an hour, public); marketplace data is per caller and changes with every
 * evaluation result, so it is not cached (0 ms, private).
 */
export const DEFAULT_CACHE_HINTS: DcgMcpCacheHints = {
  staticLists: { ttlMs: 3_600_000, cacheScope: 'public' },
  marketplaceData: { ttlMs: 0, cacheScope: 'private' },
};
