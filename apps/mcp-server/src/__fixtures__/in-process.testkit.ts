import type { Readable } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import { inject } from 'light-my-request';
import { type BuiltMcpServer, buildMcpServer, type StartMcpServerOptions } from '../server';

/**
 * Where an in-process server says it is: a loopback origin (so its loopback rules apply) on port 1,
 * where nothing listens, so that a request sent past its `fetch` fails loudly instead of reaching
 * some other server.
 */
export const IN_PROCESS_URL = 'http://127.0.0.1:1';

/** Statuses whose responses have no body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` answered by `app` in this process, without a socket: each request goes through
 * @hono/node-server's request listener (the adapter the real server runs) on Node request and
 * response objects made by light-my-request, so that the routes that need Node's req/res (the
 * authorization server, the sign-in pages) run as they do behind a socket. Requests come from
 * 127.0.0.1. It follows no redirects: a redirect answered without `redirect: 'manual'` throws.
 *
 * @example
 * const client = new StreamableHTTPClientTransport(new URL(mcpUrl), { fetch: inProcessFetch(app) });
 */
export function inProcessFetch(app: {
  fetch: (request: Request, ...rest: never[]) => Response | Promise<Response>;
}): typeof fetch {
  const listener = getRequestListener(app.fetch as (request: Request) => Promise<Response>);
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const answer = await inject(listener, {
      method: request.method as 'GET',
      url: request.url,
      headers,
      ...(body ? { payload: body } : {}),
      payloadAsStream: true,
      signal: request.signal,
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value])
        responseHeaders.append(name, String(item));
    }
    const stream = answer.stream();
    const noBody = request.method === 'HEAD' || NULL_BODY_STATUSES.has(answer.statusCode);
    if (noBody) stream.resume();
    const response = new Response(noBody ? null : webStream(stream), {
      status: answer.statusCode,
      statusText: answer.statusMessage,
      headers: responseHeaders,
    });
    // The tests walk redirects themselves (a cookie browser, a client's redirect URI).
    if (request.redirect !== 'manual' && response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      throw new TypeError(
        `in-process fetch follows no redirects (${request.method} ${request.url} answered ${response.status}): pass redirect: 'manual'`,
      );
    }
    return response;
  };
}

/**
 * A web stream that pulls from a Node stream (not Readable.toWeb, which throws when a chunk comes
 * after its reader cancelled, as SSE answers do).
 */
function webStream(stream: Readable): ReadableStream<Uint8Array> {
  const chunks = stream[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(new Uint8Array(value as Buffer));
    },
    async cancel() {
      await chunks.return?.();
    },
  });
}

/** mcp-server built in this process: what `startMcpServer` answers, and a `fetch` to reach it. */
export interface InProcessMcpServer extends BuiltMcpServer {
  /** Where it says it is (nothing listens there: use `fetch`). */
  readonly url: string;
  /** A fetch answered by the server in this process. */
  readonly fetch: typeof fetch;
}

/**
 * Builds mcp-server as `startMcpServer` does, at {@link IN_PROCESS_URL} unless `url` is given,
 * without listening: for tests where a socket adds nothing (tool calls, OAuth flows, metadata,
 * validation). Tests of limits, time-outs, connections, draining, start-up and races between
 * instances keep a real server.
 *
 * @example
 * const server = await inProcessMcpServer({ dataDir, demo: true, config });
 * const response = await server.fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`);
 */
export async function inProcessMcpServer(
  options: Omit<StartMcpServerOptions, 'port' | 'host'> & { url?: string },
): Promise<InProcessMcpServer> {
  const url = options.url ?? IN_PROCESS_URL;
  const built = await buildMcpServer({ ...options, url });
  return { ...built, url, fetch: inProcessFetch(built.app) };
}

/**
 * Where a test sends HTTP requests: a base URL reached over the network (a listening server), or
 * a server with its own `fetch` (an in-process one).
 */
export type HttpTarget = string | { readonly url: string; readonly fetch: typeof fetch };

/**
 * The base URL and the fetch of a target.
 *
 * @example
 * const { url, fetch } = reach(server);
 */
export function reach(target: HttpTarget): { url: string; fetch: typeof fetch } {
  return typeof target === 'string'
    ? { url: target, fetch: globalThis.fetch }
    : { url: target.url, fetch: target.fetch };
}
