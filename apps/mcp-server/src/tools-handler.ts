import { AsyncLocalStorage } from 'node:async_hooks';
import { END_USER_HEADER, type Logger, type ServiceMetrics, TurnBudget } from '@dcg/http-kit';
import { createKgClient } from '@dcg/kg-client';
import { createMarketplaceClient } from '@dcg/marketplace-client';
import { createDcgMcpServer, type DcgMcpDeps } from '@dcg/mcp-tools';
import {
  createMcpHandler,
  type McpHttpHandler,
  type McpServer,
} from '@modelcontextprotocol/server';
import { type McpServerConfig, resolveSecret } from './config';
import { toolCallMetrics } from './mcp-metrics';

/**
 * The SDK's MCP handler of `/mcp` over the dcg tools: their backend clients (governance-api and
 * kg-api, as configured), their metrics and cache hints; every tool call of a request runs as its
 * user (the token's subject), named to kg-api so that it limits each user apart.
 *
 * @example
 * const handler = createToolsHandler({ config, env, metrics, logger });
 */
export function createToolsHandler(options: {
  config: McpServerConfig;
  env: Record<string, string | undefined>;
  metrics: ServiceMetrics;
  logger: Logger;
  /** Registers more tools, resources or prompts on every server instance. */
  extendServer?: ((server: McpServer) => void) | undefined;
}): McpHttpHandler {
  const { config, env } = options;
  const endUsers = new AsyncLocalStorage<string>();
  // The backends' answers go on at most `maxStartsPerTurn` per turn of the event loop, as the
  // requests start: answers that arrive together would otherwise be parsed, checked and answered
  // on in one stretch of CPU, which the probes would wait behind.
  const answers = config.admission.enabled
    ? new TurnBudget(config.admission.maxStartsPerTurn)
    : undefined;
  const paced =
    (send: typeof fetch): typeof fetch =>
    async (input, init) => {
      const response = await send(input, init);
      await answers?.take();
      return response;
    };
  const deps: DcgMcpDeps = {
    observeToolCall: toolCallMetrics(options.metrics),
    marketplace: createMarketplaceClient({
      baseUrl: config.governance.baseUrl,
      apiKey: resolveSecret(config.governance.apiKey, env),
      timeoutMs: config.governance.timeoutMs,
      fetch: paced((input, init) => fetch(input, init)),
    }),
    kg: createKgClient({
      baseUrl: config.knowledgeGraph.baseUrl,
      apiKey: resolveSecret(config.knowledgeGraph.apiKey, env),
      timeoutMs: config.knowledgeGraph.timeoutMs,
      // Names the user a call is made for: kg-api limits each user apart when this server's
      // key is trusted for it (`endUsers`), instead of all users sharing one bucket.
      fetch: paced((input, init) => {
        const user = endUsers.getStore();
        if (user === undefined) return fetch(input, init);
        const request = new Request(input, init);
        request.headers.set(END_USER_HEADER, user);
        return fetch(request);
      }),
    }),
    limits: config.limits,
    cacheHints: {
      staticLists: { ttlMs: config.cache.staticListsTtlMs, cacheScope: 'public' },
      marketplaceData: { ttlMs: config.cache.marketplaceDataTtlMs, cacheScope: 'private' },
    },
  };
  const handler = createMcpHandler(
    () => {
      const mcp = createDcgMcpServer(deps);
      options.extendServer?.(mcp);
      return mcp;
    },
    {
      maxRequestBodySize: config.limits.maxRequestBytes,
      onerror: (error) =>
        options.logger.debug('mcp request refused or failed', { error: error.message }),
    },
  );
  // Every tool call of a request runs as its user (the token's subject, URL-encoded).
  return {
    ...handler,
    fetch: (request, requestOptions) => {
      const subject = requestOptions?.authInfo?.extra?.subject;
      return typeof subject === 'string'
        ? endUsers.run(encodeURIComponent(subject), () => handler.fetch(request, requestOptions))
        : handler.fetch(request, requestOptions);
    },
  };
}
