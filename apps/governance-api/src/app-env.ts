import type { AuthVariables, RequestContextVariables } from '@dcg/http-kit';

/** Limits that request readers take from the context (set once per app from its configuration). */
export interface RequestLimitVariables {
  /** Deepest nesting of a JSON body (objects and arrays). */
  maxJsonDepth: number;
}

/** Hono environment of governance-api: request id, logger, principal and limits on the context. */
export type GovernanceEnv = {
  Variables: RequestContextVariables & AuthVariables & RequestLimitVariables;
};
