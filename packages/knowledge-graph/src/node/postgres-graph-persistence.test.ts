import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { Parser } from 'n3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importMissingGraphs } from '../graph-import';
import { KnowledgeBase } from '../knowledge-base';
import type { SourceConfig } from '../source-config';
import { SourceConfigSchema } from '../source-config';
import { TripleStoreBuilder } from '../store/triple-store-builder';
import { FileGraphPersistence } from './file-graph-persistence';
import { PostgresGraphPersistence } from './postgres-graph-persistence';

const available = await postgresAvailable();
const SKOS = 'http://www.w3.org/2004/02/skos/core#';
const search = { predicates: [{ iri: `${SKOS}prefLabel`, weight: 1 }] };

const source = (id: string): SourceConfig =>
  SourceConfigSchema.parse({
    id,
    name: id,
    modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
  });

const labels = (n: number, word: string) =>
  new Parser().parse(
    Array.from(
      { length: n },
      (_, i) => `<https://ex.org/${word}${i}> <${SKOS}prefLabel> "${word} ${i}"@en .`,
    ).join('\n'),
  );

describe.skipIf(!available)('PostgresGraphPersistence', () => {
  const { schema, drop } = randomSchema('kg_snapshots');
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 4 });
  });
  afterAll(async () => {
    await pool?.end();
    await drop();
  });

  it('stores a snapshot larger than one row and loads it back, on any instance', async () => {
    // Two persistences opened at once, as two instances starting together would.
    const [a, b] = await Promise.all([
      PostgresGraphPersistence.open({ pool, schema }),
      PostgresGraphPersistence.open({ pool, schema }),
    ]);
    const builder = new TripleStoreBuilder();
    const padding = 'of a concept that a thesaurus describes at some length'.repeat(2);
    for (let i = 0; i < 100_000; i++)
      builder.addTerms(`https://ex.org/c${i}`, `${SKOS}prefLabel`, `"label ${i} ${padding}"@en`);
    const store = builder.build();
    const generation = await a.save('big', store);
    const rows = await pool.query(`SELECT count(*)::int AS n FROM ${schema}.kg_graph_chunks`);
    expect(rows.rows[0].n).toBeGreaterThan(1);
    expect(await b.generations()).toEqual(new Map([['big', generation]]));
    const loaded = await b.load('big');
    expect(loaded?.from).toBe('snapshot');
    expect(loaded?.generation).toBe(generation);
    expect(loaded?.store.size).toBe(100_000);
    expect(loaded?.store.spo.third).toEqual(store.spo.third);

    // A new save replaces the rows of the old one.
    const small = new TripleStoreBuilder();
    small.addTerms('https://ex.org/x', `${SKOS}prefLabel`, '"x"');
    const next = await b.save('big', small.build());
    const left = await pool.query(
      `SELECT DISTINCT generation FROM ${schema}.kg_graph_chunks WHERE source_id = 'big'`,
    );
    expect(left.rows.map((r) => r.generation)).toEqual([next]);
    await a.remove('big');
    expect(await a.generations()).toEqual(new Map());
    expect(await a.load('big')).toBeUndefined();
  }, 120_000);

  it('refuses a damaged snapshot with its reason, leaving the source to be ingested again', async () => {
    const persistence = await PostgresGraphPersistence.open({ pool, schema });
    const builder = new TripleStoreBuilder();
    builder.addTerms('https://ex.org/x', `${SKOS}prefLabel`, '"x"');
    await persistence.save('damaged', builder.build());
    await pool.query(
      `UPDATE ${schema}.kg_graph_chunks SET data = overlay(data placing '\\xff'::bytea from 90)
       WHERE source_id = 'damaged'`,
    );
    const reasons: string[] = [];
    const loaded = await persistence.load('damaged', {
      onSnapshotRefused: (_id, reason) => reasons.push(reason),
    });
    expect(loaded).toBeUndefined();
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(
      /the snapshot of "damaged" in .* is damaged \(checksum mismatch\); the source has no graph until it is ingested again/,
    );
  });

  it('lets a second knowledge base see what the first ingested after a refresh', async () => {
    const open = async () =>
      KnowledgeBase.open({
        sources: [source('shared')],
        search,
        persistence: await PostgresGraphPersistence.open({ pool, schema }),
      });
    const writer = await open();
    const reader = await open();
    await writer.replaceGraph('shared', labels(50, 'alpha'));
    expect(reader.search('alpha', { offset: 0, limit: 1 }).totalResults).toBe(0);
    expect(await reader.refresh()).toEqual(['shared']);
    expect(reader.search('alpha', { offset: 0, limit: 1 }).totalResults).toBe(50);
    expect(reader.generation('shared')).toBe(writer.generation('shared'));
    // Nothing changed since: nothing is loaded again, on either side.
    expect(await reader.refresh()).toEqual([]);
    expect(await writer.refresh()).toEqual([]);
    await reader.removeGraph('shared');
    expect(await writer.refresh()).toEqual(['shared']);
    expect(writer.size).toBe(0);
  });

  it('keeps the search index with the snapshot: a restart reads it instead of building it', async () => {
    const loaded: string[] = [];
    const open = async () =>
      KnowledgeBase.open({
        sources: [source('indexed')],
        search,
        persistence: await PostgresGraphPersistence.open({ pool, schema }),
        onGraphLoaded: (event) => loaded.push(`${event.from} ${event.searchIndex}`),
      });
    const first = await open();
    await first.replaceGraph('indexed', labels(3_000, 'moor'));
    const page = { offset: 5, limit: 10 };
    const second = await open();
    expect(loaded).toEqual(['snapshot snapshot']);
    expect(second.search('moor 12', page)).toEqual(first.search('moor 12', page));
    expect(second.search('moo', page)).toEqual(first.search('moo', page));
    await second.removeGraph('indexed');
  });

  it('copies the graphs of a data folder that PostgreSQL does not hold yet, once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kg-import-'));
    try {
      const files = new FileGraphPersistence(dir);
      const postgres = await PostgresGraphPersistence.open({ pool, schema });
      const builder = new TripleStoreBuilder();
      builder.addTerms('https://ex.org/x', `${SKOS}prefLabel`, '"from the folder"');
      const store = builder.build();
      await files.save('moved', store);
      await files.save('unconfigured', store);
      expect(await importMissingGraphs(files, postgres, ['moved', 'absent'])).toEqual(['moved']);
      expect((await postgres.load('moved'))?.store.size).toBe(1);
      expect(await importMissingGraphs(files, postgres, ['moved', 'absent'])).toEqual([]);
      expect((await postgres.generations()).has('unconfigured')).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
