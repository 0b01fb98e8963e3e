import type { AuthVariables, RequestContextVariables } from '@dcg/http-kit';

/**
 * Hono environment of kg-api: request id, logger and principal on the context, and when a timed
 * route (SPARQL) started work on the request, for its `Server-Timing`.
 *
 * @example
 * const app = new OpenAPIHono<KgEnv>();
 */
export type KgEnv = {
  Variables: RequestContextVariables & AuthVariables & { timingStartedAt?: number };
};
