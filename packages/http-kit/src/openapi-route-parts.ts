import type { MiddlewareHandler } from 'hono';
import { ProblemSchema } from './problem';

// The pieces that every route definition of the dcg apps repeats, written once.

/** An OpenAPI security requirement (`{ bearerAuth: [] }`); `[]` as a list means public. */
export type SecurityRequirement = Record<string, string[]>;

/** The OpenAPI entry of a problem-details answer. */
export interface OpenApiProblem {
  description: string;
  content: { 'application/problem+json': { schema: typeof ProblemSchema } };
}

/**
 * A problem-details answer in an OpenAPI route definition.
 *
 * @example
 * responses: { 404: openApiProblem('unknown source') }
 */
export function openApiProblem(description: string): OpenApiProblem {
  return { description, content: { 'application/problem+json': { schema: ProblemSchema } } };
}

/**
 * Problem-details answers by status, to spread into a route's `responses`.
 *
 * @example
 * responses: { ...openApiProblems({ 401: 'no or wrong API key', 404: 'unknown source' }) }
 */
export function openApiProblems<const T extends Record<number, string>>(
  descriptions: T,
): { [Status in keyof T]: OpenApiProblem } {
  const entries = Object.entries(descriptions).map(([status, description]) => [
    status,
    openApiProblem(description),
  ]);
  return Object.fromEntries(entries) as { [Status in keyof T]: OpenApiProblem };
}

/**
 * A JSON answer in an OpenAPI route definition; the schema's type reaches the handler's
 * `c.json` check.
 *
 * @example
 * responses: { 200: openApiJson('The policy', PolicySchema) }
 */
export function openApiJson<Schema>(
  description: string,
  schema: Schema,
): { description: string; content: { 'application/json': { schema: Schema } } } {
  return { description, content: { 'application/json': { schema } } };
}

/**
 * A route behind API keys: the bearer security requirement of the document and the middleware
 * that enforces it, to spread into a route definition.
 *
 * @example
 * createRoute({ method: 'delete', path, ...bearerGuarded(guards.write), responses })
 */
// biome-ignore lint/suspicious/noExplicitAny: middleware of any app environment
export function bearerGuarded<const M extends MiddlewareHandler<any>[]>(
  ...middleware: M
): { security: SecurityRequirement[]; middleware: M } {
  return { security: [{ bearerAuth: [] }], middleware };
}
