import type { IncomingMessage } from 'node:http';
import { ProblemError, problemResponse } from '@dcg/http-kit';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

function tooLarge(maxBytes: number): ProblemError {
  return new ProblemError({
    status: 413,
    title: 'Content Too Large',
    detail: `The request body exceeds ${maxBytes} bytes`,
  });
}

/**
 * A small body usually arrives in the same packet as the headers: once the parser has buffered
 * all the declared bytes, they are taken from the stream's buffer at once, without the event
 * round trips of a flowing stream. Returns undefined when the body is not all there yet.
 */
function readBuffered(incoming: IncomingMessage, maxBytes: number): string | undefined {
  if (incoming.headers['transfer-encoding'] !== undefined) return undefined;
  const declared = Number(incoming.headers['content-length'] ?? Number.NaN);
  if (!Number.isSafeInteger(declared) || incoming.readableLength !== declared) return undefined;
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const text = declared === 0 ? '' : (incoming.read(declared) as Buffer).toString('utf8');
  // Flowing, the stream ends by itself once the parser marks the message complete; a paused one
  // would be drained again after the response.
  incoming.resume();
  return text;
}

/**
 * Reads the request body as text, at most `maxBytes`. On Node it reads the socket stream
 * directly: building a WHATWG Request body for each call costs more than the rest of a
 * submission. Elsewhere, or when the body was already touched, it falls back to `c.req.text()`.
 *
 * @example
 * const text = await readBodyText(c, 5 * 1024 * 1024);
 */
export async function readBodyText(c: Context, maxBytes: number): Promise<string> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming || incoming.readableDidRead || incoming.readableFlowing !== null) {
    const text = await c.req.text();
    if (Buffer.byteLength(text) > maxBytes) throw tooLarge(maxBytes);
    return text;
  }
  // Handlers run while the parser is still inside the packet that carried the headers; one
  // microtask later it has also taken the body that came with them.
  await undefined;
  const buffered = readBuffered(incoming, maxBytes);
  if (buffered !== undefined) return buffered;
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        incoming.resume();
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(
        chunks.length === 1
          ? chunks[0]!.toString('utf8')
          : Buffer.concat(chunks, size).toString('utf8'),
      );
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
  });
}

/**
 * Refuses bodies larger than `maxBytes` with a 413 problem. A declared `Content-Length` is checked
 * from the header alone (touching `c.req.raw.body`, as Hono's `bodyLimit` does first, builds a
 * WHATWG stream per request); bodies without one are counted by Hono's `bodyLimit`.
 *
 * @example
 * app.use(bodySizeLimit(5 * 1024 * 1024));
 */
export function bodySizeLimit(maxBytes: number): MiddlewareHandler {
  const tooLargeResponse = (c: Context) =>
    problemResponse({
      status: 413,
      title: 'Content Too Large',
      detail: `The request body exceeds ${maxBytes} bytes`,
      instance: c.req.path,
    });
  const streaming = bodyLimit({ maxSize: maxBytes, onError: tooLargeResponse });
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      const declared = Number(length);
      if (!Number.isFinite(declared) || declared > maxBytes) return tooLargeResponse(c);
      return next();
    }
    return streaming(c, next);
  };
}
