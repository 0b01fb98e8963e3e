import { randomUUID } from 'node:crypto';
import { withPgTransaction } from '@dcg/storage/pg-transaction';
import type pg from 'pg';
import { KnowledgeGraphError } from '../errors';
import type { GraphPersistence, LoadGraphOptions, StoredGraph } from '../graph-persistence';
import type { SearchIndexData } from '../search/search-index-data';
import type { TripleStore } from '../store/triple-store';
import { decodeSnapshot, encodeSnapshot } from './graph-snapshot';

/** Bytes of one stored row of a snapshot. */
const ROW_BYTES = 8 << 20;
/** Rows fetched by one query while loading. */
const ROWS_PER_FETCH = 4;
/** Chunks of a save that never committed (its instance died) are deleted after this long. */
const ABANDONED_AFTER = '1 hour';
/** Loads retried when another instance replaces the graph while it is read. */
const LOAD_ATTEMPTS = 3;

const safeSchema = /^[a-z_][a-z0-9_]{0,62}$/;

/** Options of {@link PostgresGraphPersistence}. */
export interface PostgresGraphPersistenceOptions {
  /** The process's pool (one storage layer per process). */
  pool: pg.Pool;
  /** Schema of the tables (a lower-case SQL identifier; created when missing). */
  schema: string;
}

/**
 * Keeps each source's graph in PostgreSQL as its binary snapshot (see `graph-snapshot.ts`), in
 * rows of 8 MiB of table `<schema>.kg_graph_chunks`, and the current generation of each source in
 * `<schema>.kg_graphs`. Every instance on the database sees every graph: a knowledge base that
 * calls `refresh()` every few seconds loads the graphs other instances saved.
 *
 * A save writes its rows under a new generation first (invisible), then, in one transaction,
 * points `kg_graphs` at them and deletes the rows of the generation it replaced: PostgreSQL's
 * commit is the atomic, durable switch. A snapshot that cannot be read (damaged, another format)
 * is refused with its reason (`onSnapshotRefused`) and the source has no graph until it is
 * ingested again.
 *
 * @example
 * const persistence = await PostgresGraphPersistence.open({ pool, schema: 'dcg_kg' });
 * const kb = await KnowledgeBase.open({ sources, search, persistence });
 * setInterval(() => kb.refresh(), 2_000);
 */
export class PostgresGraphPersistence implements GraphPersistence {
  readonly #pool: pg.Pool;
  readonly #graphs: string;
  readonly #chunks: string;

  private constructor(options: PostgresGraphPersistenceOptions) {
    this.#pool = options.pool;
    this.#graphs = `${options.schema}.kg_graphs`;
    this.#chunks = `${options.schema}.kg_graph_chunks`;
  }

  /** Creates the schema and tables when missing (safe when several instances start at once). */
  static async open(options: PostgresGraphPersistenceOptions): Promise<PostgresGraphPersistence> {
    // The schema goes into SQL text (identifiers cannot be bound), so it is checked here.
    if (!safeSchema.test(options.schema))
      throw new Error(`unsafe schema name: ${JSON.stringify(options.schema)}`);
    const persistence = new PostgresGraphPersistence(options);
    await persistence.#transaction(async (client) => {
      // Two instances creating the same tables at once would collide in the catalog.
      await client.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
        `${options.schema}.kg_graphs`,
      ]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${persistence.#graphs} (
        source_id text PRIMARY KEY,
        generation uuid NOT NULL,
        saved_at timestamptz NOT NULL,
        triples bigint NOT NULL,
        bytes bigint NOT NULL
      )`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${persistence.#chunks} (
        source_id text NOT NULL,
        generation uuid NOT NULL,
        seq integer NOT NULL,
        written_at timestamptz NOT NULL DEFAULT now(),
        data bytea NOT NULL,
        PRIMARY KEY (source_id, generation, seq)
      )`);
    });
    return persistence;
  }

  async save(sourceId: string, store: TripleStore, searchIndex?: SearchIndexData): Promise<string> {
    const generation = randomUUID();
    let bytes = 0;
    try {
      let seq = 0;
      for (const row of rows(encodeSnapshot(store, generation, searchIndex))) {
        await this.#pool.query(
          `INSERT INTO ${this.#chunks} (source_id, generation, seq, data) VALUES ($1, $2, $3, $4)`,
          [sourceId, generation, seq++, row],
        );
        bytes += row.length;
      }
      await this.#transaction(async (client) => {
        const previous = await client.query<{ generation: string }>(
          `SELECT generation FROM ${this.#graphs} WHERE source_id = $1 FOR UPDATE`,
          [sourceId],
        );
        await client.query(
          `INSERT INTO ${this.#graphs} (source_id, generation, saved_at, triples, bytes)
           VALUES ($1, $2, now(), $3, $4)
           ON CONFLICT (source_id) DO UPDATE SET generation = $2, saved_at = now(), triples = $3, bytes = $4`,
          [sourceId, generation, store.size, bytes],
        );
        await this.#deleteReplaced(client, sourceId, previous.rows[0]?.generation, generation);
      });
      return generation;
    } catch (error) {
      await this.#pool
        .query(`DELETE FROM ${this.#chunks} WHERE source_id = $1 AND generation = $2`, [
          sourceId,
          generation,
        ])
        .catch(() => undefined);
      throw new KnowledgeGraphError(
        'persistence',
        `could not store the graph of "${sourceId}" in PostgreSQL`,
        { cause: error },
      );
    }
  }

  async remove(sourceId: string): Promise<void> {
    try {
      await this.#transaction(async (client) => {
        const removed = await client.query<{ generation: string }>(
          `DELETE FROM ${this.#graphs} WHERE source_id = $1 RETURNING generation`,
          [sourceId],
        );
        await this.#deleteReplaced(client, sourceId, removed.rows[0]?.generation, undefined);
      });
    } catch (error) {
      throw new KnowledgeGraphError(
        'persistence',
        `could not remove the graph of "${sourceId}" from PostgreSQL`,
        { cause: error },
      );
    }
  }

  async generations(): Promise<Map<string, string>> {
    const result = await this.#pool.query<{ source_id: string; generation: string }>(
      `SELECT source_id, generation FROM ${this.#graphs}`,
    );
    return new Map(result.rows.map((r) => [r.source_id, r.generation]));
  }

  async load(sourceId: string, options: LoadGraphOptions = {}): Promise<StoredGraph | undefined> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.#current(sourceId);
      if (current === undefined) return undefined;
      const where = `the snapshot of "${sourceId}" in ${this.#chunks} (generation ${current.generation})`;
      try {
        const { store, generation, searchIndex } = await decodeSnapshot(
          this.#read(sourceId, current.generation),
          where,
        );
        if (generation !== current.generation)
          throw new KnowledgeGraphError('snapshot_unreadable', `${where} names ${generation}`);
        return { store, generation, savedAt: current.savedAt, from: 'snapshot', searchIndex };
      } catch (error) {
        // Replaced by another instance while read (its rows deleted under us): read the new one.
        const now = await this.#current(sourceId);
        if (now?.generation !== current.generation && attempt < LOAD_ATTEMPTS) continue;
        if (!KnowledgeGraphError.isInstance(error) || error.code !== 'snapshot_unreadable')
          throw new KnowledgeGraphError('persistence', `cannot read ${where}`, { cause: error });
        options.onSnapshotRefused?.(
          sourceId,
          `${error.message}; the source has no graph until it is ingested again`,
        );
        return undefined;
      }
    }
  }

  /** Whether PostgreSQL answers now, for readiness checks. */
  async writable(): Promise<boolean> {
    try {
      await this.#pool.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async #current(sourceId: string): Promise<{ generation: string; savedAt: string } | undefined> {
    const result = await this.#pool.query<{ generation: string; saved_at: Date }>(
      `SELECT generation, saved_at FROM ${this.#graphs} WHERE source_id = $1`,
      [sourceId],
    );
    const row = result.rows[0];
    return row && { generation: row.generation, savedAt: row.saved_at.toISOString() };
  }

  async *#read(sourceId: string, generation: string): AsyncGenerator<Uint8Array> {
    for (let seq = 0; ; seq += ROWS_PER_FETCH) {
      const result = await this.#pool.query<{ data: Buffer }>(
        `SELECT data FROM ${this.#chunks}
         WHERE source_id = $1 AND generation = $2 AND seq >= $3 AND seq < $4 ORDER BY seq`,
        [sourceId, generation, seq, seq + ROWS_PER_FETCH],
      );
      for (const row of result.rows) yield row.data;
      if (result.rows.length < ROWS_PER_FETCH) return;
    }
  }

  /** Deletes the rows of the generation replaced, and those of saves abandoned long ago. */
  async #deleteReplaced(
    client: pg.PoolClient,
    sourceId: string,
    replaced: string | undefined,
    kept: string | undefined,
  ): Promise<void> {
    await client.query(
      `DELETE FROM ${this.#chunks} WHERE source_id = $1
         AND (generation = $2 OR (generation IS DISTINCT FROM $3 AND written_at < now() - interval '${ABANDONED_AFTER}'))`,
      [sourceId, replaced ?? null, kept ?? null],
    );
  }

  #transaction(work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    return withPgTransaction(this.#pool, work);
  }
}

/** The snapshot's chunks gathered into rows of {@link ROW_BYTES} (the last one shorter). */
function* rows(chunks: Iterable<Uint8Array>): Generator<Buffer> {
  let row = Buffer.allocUnsafe(ROW_BYTES);
  let used = 0;
  for (const chunk of chunks) {
    let at = 0;
    while (at < chunk.length) {
      const n = Math.min(chunk.length - at, ROW_BYTES - used);
      row.set(chunk.subarray(at, at + n), used);
      used += n;
      at += n;
      if (used === ROW_BYTES) {
        yield row;
        row = Buffer.allocUnsafe(ROW_BYTES);
        used = 0;
      }
    }
  }
  if (used > 0) yield row.subarray(0, used);
}
