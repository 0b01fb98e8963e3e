import type { AuthVariables, RequestContextVariables } from '@dcg/http-kit';

/**
 * Hono environment of kg-api: request id, logger and principal on the context.
 *
 * @example
 * const app = new OpenAPIHono<KgEnv>();
 */
export type KgEnv = { Variables: RequestContextVariables & AuthVariables };
