import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import type { z } from 'zod';
import type { KgApiConfigSchema } from '../config';
import { type RunningKgApi, startKgApi } from '../server';

/** The writer key the test kg-api accepts (`Authorization: Bearer …`). */
export const WRITER_KEY = 'writer-key-0123456789abcdef';

type ConfigInput = z.input<typeof KgApiConfigSchema>;

/** What {@link startVocabKgApi} configures beyond its source `vocab` and its writer key. */
export interface VocabKgApiOptions {
  /** Sources after `vocab` (e.g. passthrough sources). */
  readonly sources?: ConfigInput['sources'];
  /** Other configuration sections (`sparql`, `ingestion`, …). */
  readonly config?: Omit<ConfigInput, 'sources' | 'auth'>;
  /** Authentication settings besides the writer key (e.g. `readsRequireKey`). */
  readonly auth?: Omit<NonNullable<ConfigInput['auth']>, 'apiKeys'>;
  /** Prefix of the temporary folder's name. */
  readonly prefix?: string;
}

/** A kg-api listening on a free port, with a folder of the test's own. */
export interface VocabKgApi {
  readonly api: RunningKgApi;
  /** A temporary folder for the test's files; kg-api keeps its data in `dir/data`. */
  readonly dir: string;
  /** PUTs `body` as the graph of `vocab`, with the writer key. */
  upload(body: BodyInit, contentType?: string, query?: string): Promise<Response>;
  /** Stops kg-api and removes the folder. */
  close(): Promise<void>;
}

/**
 * Starts kg-api (the real server) with one ingestion source `vocab` and one writer key.
 *
 * @example
 * const kg = await startVocabKgApi({ config: { sparql: { timeoutMs: 5_000 } } });
 * expect((await kg.upload(TURTLE)).status).toBe(200);
 */
export async function startVocabKgApi(options: VocabKgApiOptions = {}): Promise<VocabKgApi> {
  const dir = await mkdtemp(join(tmpdir(), options.prefix ?? 'kg-api-'));
  const api = await startKgApi({
    dataDir: join(dir, 'data'),
    logger: createLogger('test', { level: 'silent' }),
    config: {
      ...options.config,
      sources: [
        {
          id: 'vocab',
          name: 'vocab',
          modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
        },
        ...(options.sources ?? []),
      ],
      auth: { ...options.auth, apiKeys: [{ name: 'ci', key: WRITER_KEY }] },
    },
  });
  return {
    api,
    dir,
    upload: (body, contentType = 'text/turtle', query = '') =>
      fetch(`${api.url}/v1/sources/vocab/graph${query}`, {
        method: 'PUT',
        headers: { 'content-type': contentType, authorization: `Bearer ${WRITER_KEY}` },
        body,
      }),
    close: async () => {
      await api.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
