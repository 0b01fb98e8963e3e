import { constants, createReadStream } from 'node:fs';
import { access, mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DataFactory, Parser, type Quad, Writer } from 'n3';
import { KnowledgeGraphError } from '../errors';
import type { GraphPersistence } from '../graph-persistence';

const EXTENSION = '.nt';
const TEMP_SUFFIX = '.tmp';
const LINES_PER_WRITE = 20_000;

/**
 * Keeps each source's graph as an N-Triples file `<dataDir>/graphs/<sourceId>.nt`. A save writes
 * a temporary file, fsyncs it, renames it over the old file and fsyncs the folder, so that after
 * a crash (even kill -9 or a power cut) the file holds the old graph or the new one, complete.
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

  async save(sourceId: string, quads: Iterable<Quad>): Promise<void> {
    await this.#prepare();
    const target = this.#file(sourceId);
    const temp = `${target}.${process.pid}.${Date.now()}${TEMP_SUFFIX}`;
    try {
      const handle = await open(temp, 'w');
      try {
        const writer = new Writer({ format: 'N-Triples' });
        // In batches: neither the quads nor the document are ever whole in memory.
        let batch: Quad[] = [];
        for (const quad of quads) {
          batch.push(quad);
          if (batch.length === LINES_PER_WRITE) {
            await handle.write(writer.quadsToString(batch));
            batch = [];
          }
        }
        if (batch.length > 0) await handle.write(writer.quadsToString(batch));
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, target);
      await this.#syncFolder();
    } catch (error) {
      await rm(temp, { force: true });
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
      await rm(this.#file(sourceId), { force: true });
      await this.#syncFolder();
    } catch (error) {
      throw new KnowledgeGraphError('persistence', `could not remove the graph of "${sourceId}"`, {
        cause: error,
      });
    }
  }

  async list(): Promise<string[]> {
    await this.#prepare();
    const names = await readdir(this.#folder);
    return names
      .filter((name) => name.endsWith(EXTENSION))
      .map((name) => decodeURIComponent(name.slice(0, -EXTENSION.length)));
  }

  async load(sourceId: string): Promise<Quad[]> {
    const file = this.#file(sourceId);
    // Streamed: a stored graph can be larger than the longest string V8 can hold.
    const quads: Quad[] = [];
    const graph = DataFactory.defaultGraph();
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
              {
                cause: error,
              },
            ),
          );
        } else if (quad) {
          quads.push(
            quad.graph.termType === 'DefaultGraph'
              ? quad
              : DataFactory.quad(quad.subject, quad.predicate, quad.object, graph),
          );
        } else {
          resolve();
        }
      });
    });
    return quads;
  }

  #file(sourceId: string): string {
    return join(this.#folder, `${encodeURIComponent(sourceId)}${EXTENSION}`);
  }

  #prepare(): Promise<void> {
    this.#ready ??= (async () => {
      await mkdir(this.#folder, { recursive: true });
      // Leftovers of a save interrupted by a crash: never renamed, so never acknowledged.
      for (const name of await readdir(this.#folder)) {
        if (name.endsWith(TEMP_SUFFIX)) await rm(join(this.#folder, name), { force: true });
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
