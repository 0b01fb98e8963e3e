import type { TransportIssue } from './transport-errors';

/**
 * Reads a body as UTF-8 text, at most `maxBytes` (the declared length is checked before reading,
 * the bytes while reading, so a lying or endless body stops at the cap). A body that is too large
 * or not UTF-8 throws what `unreadable` makes of the issue.
 *
 * @example
 * const text = await readText(response, 1_000_000, (issue) => new Error(issue.message));
 */
export async function readText(
  response: Response,
  maxBytes: number,
  unreadable: (issue: TransportIssue, cause?: unknown) => unknown,
): Promise<string> {
  const tooLarge = () =>
    unreadable({ code: 'too_large', path: [], message: `answer larger than ${maxBytes} bytes` });
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let size = 0;
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      text += decoder.decode(value, { stream: true });
    }
    return text + decoder.decode();
  } catch (error) {
    if (error instanceof TypeError && /decode|encoding/i.test(error.message)) {
      throw unreadable({ code: 'not_utf8', path: [], message: 'body is not valid UTF-8' }, error);
    }
    throw error;
  } finally {
    reader.releaseLock();
  }
}

/**
 * The text on one line and at most 200 characters, for a message.
 *
 * @example
 * snippet('<html>\n  <body>…'); // '<html> <body>…'
 */
export function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
