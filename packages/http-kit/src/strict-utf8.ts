import { ProblemError } from './problem';
import { type DecodeUtf8Result, decodeUtf8, decodeUtf8InSteps } from './utf8';

/**
 * Decodes a request's text strictly, or throws a 400 problem naming the offset of the first byte
 * that is not UTF-8 (`byteOffset`, and an error at `$.<what>`): every app refuses such text the
 * same way instead of reading U+FFFD into it.
 *
 * @example
 * const text = strictUtf8(new Uint8Array(await c.req.arrayBuffer()), 'body');
 */
export function strictUtf8(
  bytes: Uint8Array,
  what: string,
  options: { type?: string | undefined } = {},
): string {
  return textOrProblem(decodeUtf8(bytes), what, options);
}

/**
 * {@link strictUtf8} in steps, the event loop turning between them: for uploads, which may be
 * hundreds of MB.
 *
 * @example
 * const text = await strictUtf8InSteps(new Uint8Array(await c.req.arrayBuffer()), 'body');
 */
export async function strictUtf8InSteps(
  bytes: Uint8Array,
  what: string,
  options: { type?: string | undefined } = {},
): Promise<string> {
  return textOrProblem(await decodeUtf8InSteps(bytes), what, options);
}

function textOrProblem(
  decoded: DecodeUtf8Result,
  what: string,
  options: { type?: string | undefined },
): string {
  if (decoded.success) return decoded.text;
  throw new ProblemError({
    ...(options.type ? { type: options.type } : {}),
    status: 400,
    title: 'Invalid UTF-8',
    detail: `The ${what} is not valid UTF-8: byte ${decoded.byteOffset} (counted from 0) starts no UTF-8 sequence. Nothing was changed.`,
    byteOffset: decoded.byteOffset,
    errors: [
      {
        path: `$.${what}`,
        message: `invalid UTF-8 at byte ${decoded.byteOffset}`,
        code: 'invalid_utf8',
      },
    ],
  });
}
