import type { Context } from 'hono';
import type { z } from 'zod';
import { fieldErrorsFromZod, problemResponse } from './problem';

const TARGET_NAMES: Record<string, string> = {
  json: 'request body',
  form: 'form body',
  query: 'query parameters',
  param: 'path parameters',
  header: 'headers',
  cookie: 'cookies',
};

/**
 * `defaultHook` for `@hono/zod-openapi`: invalid input becomes a 400 problem listing each error with
 * its JSON path.
 *
 * @example
 * const app = new OpenAPIHono({ defaultHook: zodValidationHook });
 */
export function zodValidationHook(
  result:
    | { success: true; data: unknown; target: string }
    | { success: false; error: z.ZodError; target: string },
  c: Context,
): Response | undefined {
  if (result.success) return undefined;
  const where = TARGET_NAMES[result.target] ?? result.target;
  return problemResponse({
    status: 400,
    title: 'Invalid request',
    detail: `The ${where} did not validate`,
    instance: c.req.path,
    errors: fieldErrorsFromZod(result.error),
  });
}
