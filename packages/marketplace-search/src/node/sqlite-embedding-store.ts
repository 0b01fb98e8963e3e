import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { migrate, openSqlite } from '@dcg/storage';
import type { EmbeddingStore } from '../embedding-store';
import { MarketplaceSearchError } from '../errors';
import {
  type EmbeddingTables,
  embeddingMigrations,
  kyselyEmbeddingStore,
} from './kysely-embedding-store';

/**
 * Opens (and migrates) the SQLite embedding store: a file of its own in the data folder, WAL
 * journal, `synchronous = NORMAL` (survives kill -9 of the process).
 *
 * @example
 * const store = await openSqliteEmbeddingStore({ file: './data/embeddings.db' });
 */
export async function openSqliteEmbeddingStore(options: { file: string }): Promise<EmbeddingStore> {
  const { file } = options;
  const queue = file === ':memory:' ? undefined : resolve(file);
  const serialise = <T>(task: () => Promise<T>) => (queue ? oneAtATime(queue, task) : task());
  let handle: Awaited<ReturnType<typeof openSqlite<EmbeddingTables>>> | undefined;
  try {
    if (queue) mkdirSync(dirname(queue), { recursive: true });
    handle = await openSqlite<EmbeddingTables>(file);
    const opened = handle;
    await serialise(() => migrate(opened, embeddingMigrations));
    // A data folder belongs to one process at a time: the leases of an earlier one are void, so
    // its interrupted job resumes at once.
    await opened.db.deleteFrom('marketplace_embedding_leases').execute();
  } catch (cause) {
    await handle?.close();
    throw new MarketplaceSearchError('store_failed', `cannot open the embedding store ${file}`, {
      cause,
    });
  }
  return kyselyEmbeddingStore(handle.db, { kind: 'sqlite', close: handle.close, serialise });
}

const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `task` after every earlier one on the same file in this process. A transaction holds the
 * write lock across awaits; a second connection of this process waiting for that lock would block
 * the event loop in SQLite's busy handler, so the holder could never finish. (Other processes
 * wait in their own busy handler.)
 */
function oneAtATime<T>(file: string, task: () => Promise<T>): Promise<T> {
  const run = (queues.get(file) ?? Promise.resolve()).then(task);
  const settled = run.catch(() => undefined);
  queues.set(file, settled);
  void settled.then(() => queues.get(file) === settled && queues.delete(file));
  return run;
}
