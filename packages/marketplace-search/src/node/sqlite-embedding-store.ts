import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
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
  let handle: Awaited<ReturnType<typeof openSqlite<EmbeddingTables>>> | undefined;
  try {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    handle = await openSqlite<EmbeddingTables>(file);
    // Migrations take the file's turn in this process (@dcg/storage `transaction`).
    await migrate(handle, embeddingMigrations);
    // A data folder belongs to one process at a time: the leases of an earlier one are void, so
    // its interrupted job resumes at once.
    await handle.db.deleteFrom('marketplace_embedding_leases').execute();
  } catch (cause) {
    await handle?.close();
    throw new MarketplaceSearchError('store_failed', `cannot open the embedding store ${file}`, {
      cause,
    });
  }
  return kyselyEmbeddingStore(handle);
}
