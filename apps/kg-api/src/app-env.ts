import type { AuthVariables, RequestContextVariables } from '@dcg/http-kit';

/** Hono environment of kg-api: request id, logger and principal on the context. */
export type KgEnv = { Variables: RequestContextVariables & AuthVariables };
