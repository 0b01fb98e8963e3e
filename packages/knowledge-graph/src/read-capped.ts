import { readText } from '@dcg/client-transport';
import { KnowledgeGraphError } from './errors';

/**
 * Reads an upstream response body as UTF-8 text, refusing (`upstream_malformed`) once it passes
 * `max` bytes, so that an upstream cannot make us buffer without bound. The reading itself is the
 * clients' capped reader; this only says which source failed.
 *
 * @example
 * const text = await readCapped(response, 50 * 2 ** 20, 'thesaurus');
 */
export function readCapped(response: Response, max: number, sourceId: string): Promise<string> {
  return readText(response, max, (issue, cause) =>
    issue.code === 'too_large'
      ? new KnowledgeGraphError(
          'upstream_malformed',
          `source "${sourceId}" answered more than ${max} bytes`,
        )
      : new KnowledgeGraphError(
          'upstream_malformed',
          `source "${sourceId}" answered text that is not UTF-8`,
          { cause },
        ),
  );
}
