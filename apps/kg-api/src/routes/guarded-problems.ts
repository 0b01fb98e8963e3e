import { openApiProblems } from '@dcg/http-kit';

/**
 * The problem answers of an operation behind API keys: 401 without a valid key, and `more`.
 *
 * @example
 * responses: { 200: openApiJson('Removed', GraphInfoSchema), ...guardedProblems({ 404: 'unknown source' }) }
 */
export function guardedProblems<const More extends Record<number, string>>(
  more: More = {} as More,
) {
  return openApiProblems({ 401: 'no or wrong API key', ...more });
}
