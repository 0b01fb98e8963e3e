import { randomUUID } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { access, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Parser, type Quad, Writer } from 'n3';
import { KnowledgeGraphError } from '../errors';
import type { GraphPersistence, LoadGraphOptions, StoredGraph } from '../graph-persistence';
import type { SearchIndexData } from '../search/search-index-data';
import type { TripleStore } from '../store/triple-store';
import { TripleStoreBuilder } from '../store/triple-store-builder';
import { decodeSnapshot, encodeSnapshot, readSnapshotHeader } from './graph-snapshot';

const EXTENSION = '.nt';
const SNAPSHOT_EXTENSION = '.snapshot';
const TEMP_SUFFIX = '.tmp';
const LINES_PER_WRITE = 20_000;
/** A temporary file untouched this long belongs to a save that died. */
const STALE_TEMP_MS = 60_000;
/** The first line of a stored N-Triples file: a comment that names its generation and date. */
const GENERATION_COMMENT = '# dcg-graph-generation ';
const GENERATION_LINE = /^# dcg-graph-generation ([0-9a-f-]{36}) (\S+)\n/;

/**
 * Keeps each source's graph in `<dataDir>/graphs` as two files: `<sourceId>.nt`, the triples as
 * N-Triples (the durable record, its first line a comment naming the graph's generation), and
 * `<sourceId>.snapshot`, the binary snapshot of its store (see `graph-snapshot.ts`), which loads
 * in a fraction of the time a parse takes.
 *
 * A save writes the snapshot, then the N-Triples; each as a temporary file, fsynced, renamed over
 * the old one, the folder fsynced. The N-Triples rename is the commit: after a crash (even kill -9
 * or a power cut) the `.nt` holds the old graph or the new one, complete. A load uses the snapshot
 * when it holds the generation of the `.nt`; a snapshot that is stale, foreign, damaged or of
 * another format is refused (told to `onSnapshotRefused`), the `.nt` is parsed instead and a
 * fresh snapshot written. Several instances may share the folder: {@link generations} reads the
 * first line of each `.nt` only.
 *
 * @example
 * const persistence = new FileGraphPersistence('/var/lib/dcg-kg');
 * const kb = await KnowledgeBase.open({ sources, search, persistence });
 */
export class FileGraphPersistence implements GraphPersistence {
  readonly #folder: string;
  #ready: Promise<void> | undefined;

  constructor(dataDir: string) {
    this.#folder = join(dataDir, 'graphs');
  }

  /** Folder holding the graph files. */
  get folder(): string {
    return this.#folder;
  }

  async save(sourceId: string, store: TripleStore, searchIndex?: SearchIndexData): Promise<string> {
    await this.#prepare();
    const generation = randomUUID();
    try {
      await this.#writeSnapshot(sourceId, store, generation, searchIndex);
      await this.#writeAtomically(this.#file(sourceId), async (handle) => {
        await handle.write(`${GENERATION_COMMENT}${generation} ${new Date().toISOString()}\n`);
        const writer = new Writer({ format: 'N-Triples' });
        // In batches: neither the quads nor the document are ever whole in memory.
        let batch: Quad[] = [];
        for (const quad of store.quads()) {
          batch.push(quad);
          if (batch.length === LINES_PER_WRITE) {
            await handle.write(writer.quadsToString(batch));
            batch = [];
          }
        }
        if (batch.length > 0) await handle.write(writer.quadsToString(batch));
      });
      return generation;
    } catch (error) {
      throw new KnowledgeGraphError('persistence', `could not store the graph of "${sourceId}"`, {
        cause: error,
      });
    }
  }

  /** Whether graphs can be stored now (the folder exists and is writable), for readiness checks. */
  async writable(): Promise<boolean> {
    try {
      await this.#prepare();
      await access(this.#folder, constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }

  async remove(sourceId: string): Promise<void> {
    await this.#prepare();
    try {
      // The `.nt` first: without it the graph is gone, whatever happens to the snapshot.
      await rm(this.#file(sourceId), { force: true });
      await rm(this.#snapshotFile(sourceId), { force: true });
      await this.#syncFolder();
    } catch (error) {
      throw new KnowledgeGraphError('persistence', `could not remove the graph of "${sourceId}"`, {
        cause: error,
      });
    }
  }

  async generations(): Promise<Map<string, string>> {
    await this.#prepare();
    const names = await readdir(this.#folder);
    const generations = new Map<string, string>();
    for (const name of names) {
      if (!name.endsWith(EXTENSION)) continue;
      const sourceId = decodeURIComponent(name.slice(0, -EXTENSION.length));
      const stamp = await this.#stamp(sourceId);
      // A file from before generations were written: its size and date stand in.
      generations.set(sourceId, stamp?.generation ?? 'unstamped');
    }
    return generations;
  }

  async load(sourceId: string, options: LoadGraphOptions = {}): Promise<StoredGraph | undefined> {
    const stamp = await this.#stamp(sourceId);
    if (stamp === null) return undefined;
    const snapshotFile = this.#snapshotFile(sourceId);
    if (stamp !== undefined) {
      try {
        const header = readSnapshotHeader(await readFirstBytes(snapshotFile, 64), snapshotFile);
        if (header.generation !== stamp.generation)
          throw new KnowledgeGraphError(
            'snapshot_unreadable',
            `${snapshotFile} holds generation ${header.generation}, not the stored graph's ${stamp.generation} (a save was interrupted)`,
          );
        const { store, generation, searchIndex } = await decodeSnapshot(
          createReadStream(snapshotFile, { highWaterMark: 1 << 22 }),
          snapshotFile,
        );
        if (generation !== stamp.generation)
          throw new KnowledgeGraphError(
            'snapshot_unreadable',
            `${snapshotFile} changed while read`,
          );
        return { store, generation, savedAt: stamp.savedAt, from: 'snapshot', searchIndex };
      } catch (error) {
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
        options.onSnapshotRefused?.(
          sourceId,
          missing
            ? `${snapshotFile} does not exist`
            : error instanceof Error
              ? error.message
              : String(error),
        );
      }
    }
    const store = await this.#parse(sourceId, options.maxBytes);
    if (stamp === undefined) {
      // A graph stored before snapshots: stored again, now with its generation and snapshot.
      const generation = await this.save(sourceId, store);
      return { store, generation, from: 'triples' };
    }
    await this.#prepare();
    await this.#writeSnapshot(sourceId, store, stamp.generation).catch(() => undefined);
    return { store, generation: stamp.generation, savedAt: stamp.savedAt, from: 'triples' };
  }

  /** The generation line of a source's `.nt`: `null` when there is no file, `undefined` when unstamped. */
  async #stamp(
    sourceId: string,
  ): Promise<{ generation: string; savedAt: string } | null | undefined> {
    let first: Buffer;
    try {
      first = await readFirstBytes(this.#file(sourceId), 128);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new KnowledgeGraphError('persistence', `cannot read ${this.#file(sourceId)}`, {
        cause: error,
      });
    }
    const match = GENERATION_LINE.exec(first.toString('latin1'));
    return match ? { generation: match[1] as string, savedAt: match[2] as string } : undefined;
  }

  async #parse(sourceId: string, maxBytes: number | undefined): Promise<TripleStore> {
    const file = this.#file(sourceId);
    const builder = new TripleStoreBuilder(maxBytes === undefined ? {} : { maxBytes });
    // Streamed: a stored graph can be larger than the longest string V8 can hold.
    await new Promise<void>((resolve, reject) => {
      const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
      stream.on('error', (error) =>
        reject(new KnowledgeGraphError('persistence', `cannot read ${file}`, { cause: error })),
      );
      new Parser({ format: 'N-Triples' }).parse(stream as never, (error, quad) => {
        if (error) {
          stream.destroy();
          reject(
            new KnowledgeGraphError(
              'persistence',
              `stored graph ${file} is unreadable: ${error.message}`,
              { cause: error },
            ),
          );
        } else if (quad) {
          try {
            builder.addQuad(quad);
          } catch (failure) {
            stream.destroy();
            reject(failure);
          }
        } else {
          resolve();
        }
      });
    });
    return builder.build();
  }

  #writeSnapshot(
    sourceId: string,
    store: TripleStore,
    generation: string,
    searchIndex?: SearchIndexData,
  ): Promise<void> {
    return this.#writeAtomically(this.#snapshotFile(sourceId), async (handle) => {
      for (const chunk of encodeSnapshot(store, generation, searchIndex)) await handle.write(chunk);
    });
  }

  /** Writes `target` through a temporary file: written, fsynced, renamed, the folder fsynced. */
  async #writeAtomically(
    target: string,
    write: (handle: Awaited<ReturnType<typeof open>>) => Promise<void>,
  ): Promise<void> {
    const temp = `${target}.${process.pid}.${Date.now()}${TEMP_SUFFIX}`;
    try {
      const handle = await open(temp, 'w');
      try {
        await write(handle);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, target);
      await this.#syncFolder();
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  #file(sourceId: string): string {
    return join(this.#folder, `${encodeURIComponent(sourceId)}${EXTENSION}`);
  }

  #snapshotFile(sourceId: string): string {
    return join(this.#folder, `${encodeURIComponent(sourceId)}${SNAPSHOT_EXTENSION}`);
  }

  #prepare(): Promise<void> {
    this.#ready ??= (async () => {
      await mkdir(this.#folder, { recursive: true });
      // Leftovers of a save interrupted by a crash: never renamed, so never acknowledged. Only
      // old ones: another instance sharing the folder may be writing a fresh one now.
      const now = Date.now();
      for (const name of await readdir(this.#folder)) {
        if (!name.endsWith(TEMP_SUFFIX)) continue;
        const file = join(this.#folder, name);
        const modified = await stat(file).then(
          (s) => s.mtimeMs,
          () => now,
        );
        if (now - modified > STALE_TEMP_MS) await rm(file, { force: true });
      }
    })();
    return this.#ready;
  }

  async #syncFolder(): Promise<void> {
    const dir = await open(this.#folder, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}

/** Up to `length` bytes from the start of a file. */
async function readFirstBytes(file: string, length: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
