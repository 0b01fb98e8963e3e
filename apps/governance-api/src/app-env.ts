import type { AuthVariables, RequestContextVariables } from '@dcg/http-kit';

/** Hono environment of governance-api: request id, logger and principal on the context. */
export type GovernanceEnv = { Variables: RequestContextVariables & AuthVariables };
