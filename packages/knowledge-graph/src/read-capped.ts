import { KnowledgeGraphError } from './errors';
import { decodeUtf8 } from './strict-utf8';

/**
 * Reads a response body as text, refusing (`upstream_malformed`) once it passes `max` bytes, so
 * that an upstream cannot make us buffer without bound.
 *
 * @example
 * const text = await readCapped(response, 50 * 2 ** 20, 'thesaurus');
 */
export async function readCapped(
  response: Response,
  max: number,
  sourceId: string,
): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > max) {
    await response.body?.cancel();
    throw new KnowledgeGraphError(
      'upstream_malformed',
      `source "${sourceId}" answered ${declared} bytes, more than ${max}`,
    );
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new KnowledgeGraphError(
        'upstream_malformed',
        `source "${sourceId}" answered more than ${max} bytes`,
      );
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  const decoded = decodeUtf8(bytes);
  if (!decoded.success)
    throw new KnowledgeGraphError(
      'upstream_malformed',
      `source "${sourceId}" answered text that is not UTF-8 (byte ${decoded.byteOffset})`,
    );
  return decoded.text;
}
