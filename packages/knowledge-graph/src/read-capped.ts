import { KnowledgeGraphError } from './errors';

/**
 * Reads a response body as text, refusing (`UPSTREAM_MALFORMED`) once it passes `max` bytes, so
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
      'UPSTREAM_MALFORMED',
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
        'UPSTREAM_MALFORMED',
        `source "${sourceId}" answered more than ${max} bytes`,
      );
    }
    chunks.push(value);
  }
  const decoder = new TextDecoder();
  let text = '';
  for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}
