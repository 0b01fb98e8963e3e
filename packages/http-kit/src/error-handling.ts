import type { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from './logger';
import { ProblemError, problemResponse } from './problem';

/**
 * Makes every error of the app a problem-details response: a thrown `ProblemError` as it is, Hono's
 * `HTTPException` (e.g. a malformed JSON body) with its status, unknown routes as 404, and only real
 * bugs as 500 (logged with their stack, which never reaches the client).
 *
 * @example
 * const app = new Hono();
 * installErrorHandling(app, logger);
 */
// biome-ignore lint/suspicious/noExplicitAny: any Hono app, whatever its environment type
export function installErrorHandling(app: Hono<any, any, any>, logger?: Logger): void {
  app.notFound((c) =>
    problemResponse({
      status: 404,
      title: 'Not Found',
      detail: `No route for ${c.req.method} ${c.req.path}`,
      instance: c.req.path,
    }),
  );
  app.onError((error, c) => {
    if (ProblemError.isInstance(error)) {
      return problemResponse({ instance: c.req.path, ...error.problem });
    }
    if (error instanceof HTTPException) {
      const status = error.status;
      return problemResponse({
        status,
        title: status === 401 ? 'Unauthorized' : status < 500 ? 'Bad Request' : 'Server Error',
        detail: error.message || undefined,
        instance: c.req.path,
      });
    }
    if ((error as NodeJS.ErrnoException).code === 'ECONNRESET') {
      // The client went away (or was cut by a timeout) while its body was read: no bug to log,
      // and nobody to read the answer.
      return problemResponse({
        status: 400,
        title: 'Bad Request',
        detail: 'The request body was not received completely',
        instance: c.req.path,
      });
    }
    ((c.get('logger') as Logger | undefined) ?? logger)?.error('unhandled error', { error });
    return problemResponse({
      status: 500,
      title: 'Internal Server Error',
      detail: 'An unexpected error occurred; it has been logged.',
      instance: c.req.path,
    });
  });
}
