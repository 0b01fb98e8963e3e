import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeEmbeddingStoreConformance } from './embedding-store-conformance.testkit';
import { openSqliteEmbeddingStore } from './sqlite-embedding-store';

const dir = mkdtempSync(join(tmpdir(), 'dcg-emb-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeEmbeddingStoreConformance('sqlite', () =>
  openSqliteEmbeddingStore({ file: join(dir, 'embeddings.db') }),
);
