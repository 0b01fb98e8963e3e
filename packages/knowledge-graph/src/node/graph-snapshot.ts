import { endianness } from 'node:os';
import { crc32 } from 'node:zlib';
import { KnowledgeGraphError } from '../errors';
import { TermDictionary } from '../store/term-dictionary';
import type { TripleIndex } from '../store/triple-index';
import { TripleStore } from '../store/triple-store';

/**
 * The binary snapshot of a {@link TripleStore}: its dictionary and its three indexes as they are
 * in memory, so that loading is a copy and a map fill, never a parse.
 *
 * Layout (little-endian): a 64-byte header (magic `DCGKGSNP`, format version, counts, the
 * graph's generation, a CRC-32 of the header itself), then the sections — the UTF-8 byte length
 * of each term, the terms' UTF-8 bytes, the ill-formed terms as JSON, and for SPO, POS and OSP the
 * offsets, second and third keys — then an 8-byte trailer: the CRC-32 of every section and `END1`.
 */
const MAGIC = 'DCGKGSNP';
/** Bumped whenever the layout changes: an older or newer snapshot is refused, never misread. */
export const SNAPSHOT_FORMAT_VERSION = 1;
const HEADER_BYTES = 64;
const TRAILER_BYTES = 8;
const TRAILER_MAGIC = 'END1';
/** Terms are encoded into chunks of about this size. */
const CHUNK_BYTES = 1 << 20;
const ORDERS = ['spo', 'pos', 'osp'] as const;

/** Facts a snapshot's header gives before its body is read. */
export interface SnapshotHeader {
  formatVersion: number;
  terms: number;
  triples: number;
  /** The generation of the graph this snapshot holds (as saved). */
  generation: string;
}

function refuse(message: string, cause?: unknown): KnowledgeGraphError {
  return new KnowledgeGraphError(
    'snapshot_unreadable',
    message,
    cause === undefined ? {} : { cause },
  );
}

function requireLittleEndian(): void {
  // The indexes are written and read as raw typed arrays.
  if (endianness() !== 'LE')
    throw refuse('graph snapshots are only written and read on little-endian machines');
}

const isWellFormed = (term: string): boolean =>
  (term as unknown as { isWellFormed(): boolean }).isWellFormed();

/** A generation as 16 bytes: 32 hex digits (a UUID's digits), which is what persistences give. */
function generationBytes(generation: string): Buffer {
  const hex = generation.replaceAll('-', '');
  if (!/^[0-9a-f]{32}$/.test(hex))
    throw new Error(`a snapshot generation is 32 hex digits (a UUID), not "${generation}"`);
  return Buffer.from(hex, 'hex');
}

function generationString(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The snapshot of `store` as a sequence of byte chunks (write them in order). Chunks that view
 * the store's own arrays are not copies: consume each before the store could change (it never
 * does: stores are immutable).
 *
 * @example
 * for (const chunk of encodeSnapshot(store, randomUUID())) await handle.write(chunk);
 */
export function* encodeSnapshot(store: TripleStore, generation: string): Generator<Uint8Array> {
  requireLittleEndian();
  const terms = store.terms;
  const count = terms.size;
  const lengths = new Uint32Array(count);
  const illFormed: Array<[number, string]> = [];
  let termBytes = 0;
  for (let id = 1; id <= count; id++) {
    const term = terms.term(id);
    if (!isWellFormed(term)) {
      // UTF-8 cannot hold a lone surrogate; JSON's \u escapes can.
      illFormed.push([id, term]);
      continue;
    }
    const length = Buffer.byteLength(term, 'utf8');
    lengths[id - 1] = length;
    termBytes += length;
  }
  const illFormedJson = Buffer.from(JSON.stringify(illFormed), 'utf8');
  const keys = store.spo.offsets.length;

  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(SNAPSHOT_FORMAT_VERSION, 8);
  header.writeUInt32LE(HEADER_BYTES, 12);
  header.writeUInt32LE(count, 16);
  header.writeUInt32LE(store.size, 20);
  header.writeDoubleLE(termBytes, 24);
  header.writeUInt32LE(keys, 32);
  header.writeUInt32LE(illFormedJson.length, 36);
  generationBytes(generation).copy(header, 40);
  header.writeUInt32LE(crc32(header.subarray(0, 60)), 60);
  yield header;

  let checksum = 0;
  const section = (bytes: Uint8Array): Uint8Array => {
    checksum = crc32(bytes, checksum);
    return bytes;
  };
  yield section(new Uint8Array(lengths.buffer, lengths.byteOffset, lengths.byteLength));
  let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;
  for (let id = 1; id <= count; id++) {
    const length = lengths[id - 1] as number;
    if (length === 0) continue;
    if (used + length > chunk.length) {
      if (used > 0) yield section(chunk.subarray(0, used));
      chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, length));
      used = 0;
    }
    used += chunk.write(terms.term(id), used, 'utf8');
  }
  if (used > 0) yield section(chunk.subarray(0, used));
  yield section(illFormedJson);
  for (const order of ORDERS) {
    const index = store[order];
    if (index.offsets.length !== keys) throw new Error(`the ${order} index has other keys`);
    for (const array of [index.offsets, index.second, index.third])
      yield section(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  }
  const trailer = Buffer.alloc(TRAILER_BYTES);
  trailer.writeUInt32LE(checksum, 0);
  trailer.write(TRAILER_MAGIC, 4, 'latin1');
  yield trailer;
}

/** Reads exact byte counts out of a stream of chunks of any sizes. */
class ChunkReader {
  readonly #chunks: AsyncIterator<Uint8Array>;
  #current: Uint8Array = new Uint8Array(0);
  #at = 0;
  checksum = 0;

  constructor(chunks: AsyncIterable<Uint8Array>) {
    this.#chunks = chunks[Symbol.asyncIterator]();
  }

  /** Fills `target` completely; false when the stream ends first. */
  async fill(target: Uint8Array, summed = true): Promise<boolean> {
    let filled = 0;
    while (filled < target.length) {
      if (this.#at >= this.#current.length) {
        const next = await this.#chunks.next();
        if (next.done) return false;
        this.#current = next.value;
        this.#at = 0;
        continue;
      }
      const n = Math.min(target.length - filled, this.#current.length - this.#at);
      target.set(this.#current.subarray(this.#at, this.#at + n), filled);
      this.#at += n;
      filled += n;
    }
    if (summed) this.checksum = crc32(target, this.checksum);
    return true;
  }

  /** True when nothing follows. */
  async atEnd(): Promise<boolean> {
    while (this.#at >= this.#current.length) {
      const next = await this.#chunks.next();
      if (next.done) return true;
      this.#current = next.value;
      this.#at = 0;
    }
    return false;
  }

  async close(): Promise<void> {
    await this.#chunks.return?.();
  }
}

function parseHeader(
  header: Buffer,
  where: string,
): SnapshotHeader & {
  termBytes: number;
  keys: number;
  illFormedBytes: number;
} {
  if (header.toString('latin1', 0, 8) !== MAGIC)
    throw refuse(`${where} is not a dcg graph snapshot (its first bytes are not "${MAGIC}")`);
  const formatVersion = header.readUInt32LE(8);
  if (formatVersion !== SNAPSHOT_FORMAT_VERSION)
    throw refuse(
      `${where} is a graph snapshot of format ${formatVersion}; this version reads format ${SNAPSHOT_FORMAT_VERSION} only`,
    );
  if (header.readUInt32LE(60) !== crc32(header.subarray(0, 60)))
    throw refuse(`${where} has a damaged header (checksum mismatch)`);
  return {
    formatVersion,
    terms: header.readUInt32LE(16),
    triples: header.readUInt32LE(20),
    termBytes: header.readDoubleLE(24),
    keys: header.readUInt32LE(32),
    illFormedBytes: header.readUInt32LE(36),
    generation: generationString(header.subarray(40, 56)),
  };
}

/**
 * Reads the header of a snapshot from its first 64 bytes (a `snapshot_unreadable` error when they
 * are not a snapshot header of this format).
 *
 * @example
 * const { generation } = readSnapshotHeader(firstBytes, 'demo.snapshot');
 */
export function readSnapshotHeader(bytes: Uint8Array, where: string): SnapshotHeader {
  if (bytes.length < HEADER_BYTES) throw refuse(`${where} is too short to be a graph snapshot`);
  const { formatVersion, terms, triples, generation } = parseHeader(
    Buffer.from(bytes.buffer, bytes.byteOffset, HEADER_BYTES),
    where,
  );
  return { formatVersion, terms, triples, generation };
}

/**
 * Rebuilds a {@link TripleStore} from a snapshot's chunks (as {@link encodeSnapshot} gave them,
 * in any chunk sizes). A foreign, truncated, damaged or other-format snapshot is refused with a
 * `snapshot_unreadable` error that says which; `where` names the snapshot in messages.
 *
 * @example
 * const { store, generation } = await decodeSnapshot(createReadStream(file), file);
 */
export async function decodeSnapshot(
  chunks: AsyncIterable<Uint8Array>,
  where: string,
): Promise<{ store: TripleStore; generation: string }> {
  requireLittleEndian();
  const reader = new ChunkReader(chunks);
  try {
    const truncated = () => refuse(`${where} is truncated`);
    const headerBytes = Buffer.alloc(HEADER_BYTES);
    if (!(await reader.fill(headerBytes, false)))
      throw refuse(`${where} is too short to be a graph snapshot`);
    const header = parseHeader(headerBytes, where);
    const { terms: count, triples, termBytes, keys } = header;
    if (keys !== count + 2 || !Number.isSafeInteger(termBytes))
      throw refuse(`${where} has a damaged header (inconsistent counts)`);

    const lengths = new Uint32Array(count);
    if (!(await reader.fill(new Uint8Array(lengths.buffer)))) throw truncated();
    const list: string[] = new Array(count + 1);
    list[0] = '';
    // The terms' bytes are read and decoded a slice at a time: never all of them at once.
    let id = 1;
    let pending = termBytes;
    let carry = Buffer.alloc(0);
    while (pending > 0) {
      const size = Math.min(pending, CHUNK_BYTES * 16);
      const slice = Buffer.allocUnsafe(carry.length + size);
      carry.copy(slice, 0);
      if (!(await reader.fill(slice.subarray(carry.length)))) throw truncated();
      pending -= size;
      let at = 0;
      while (id <= count) {
        const length = lengths[id - 1] as number;
        if (length === 0) {
          id++;
          continue;
        }
        if (at + length > slice.length) break;
        list[id++] = slice.toString('utf8', at, at + length);
        at += length;
      }
      carry = slice.subarray(at);
    }
    while (id <= count) {
      if ((lengths[id - 1] as number) !== 0) throw refuse(`${where} has damaged term lengths`);
      id++;
    }
    if (carry.length > 0) throw refuse(`${where} has damaged term lengths`);
    const illFormedBytes = Buffer.alloc(header.illFormedBytes);
    if (!(await reader.fill(illFormedBytes))) throw truncated();
    let illFormed: unknown;
    try {
      illFormed = JSON.parse(illFormedBytes.toString('utf8'));
    } catch (error) {
      throw refuse(`${where} has damaged terms`, error);
    }
    if (!Array.isArray(illFormed)) throw refuse(`${where} has damaged terms`);
    for (const entry of illFormed as unknown[]) {
      if (
        !Array.isArray(entry) ||
        typeof entry[0] !== 'number' ||
        typeof entry[1] !== 'string' ||
        entry[0] < 1 ||
        entry[0] > count
      )
        throw refuse(`${where} has damaged terms`);
      list[entry[0]] = entry[1];
    }

    const indexes: TripleIndex[] = [];
    for (const order of ORDERS) {
      const offsets = new Uint32Array(keys);
      const second = new Uint32Array(triples);
      const third = new Uint32Array(triples);
      for (const array of [offsets, second, third])
        if (!(await reader.fill(new Uint8Array(array.buffer)))) throw truncated();
      indexes.push({ order, offsets, second, third });
    }
    const expected = reader.checksum;
    const trailer = Buffer.alloc(TRAILER_BYTES);
    if (!(await reader.fill(trailer, false))) throw truncated();
    if (trailer.toString('latin1', 4, 8) !== TRAILER_MAGIC) throw truncated();
    if (trailer.readUInt32LE(0) !== expected)
      throw refuse(`${where} is damaged (checksum mismatch)`);
    if (!(await reader.atEnd())) throw refuse(`${where} has bytes after its end`);
    for (let k = 0; k <= count; k++) if (list[k] === undefined) list[k] = '';
    const [spo, pos, osp] = indexes as [TripleIndex, TripleIndex, TripleIndex];
    for (const index of indexes) {
      if (index.offsets[keys - 1] !== triples)
        throw refuse(`${where} has a damaged ${index.order} index`);
    }
    return {
      store: new TripleStore(TermDictionary.fromTerms(list), spo, pos, osp),
      generation: header.generation,
    };
  } catch (error) {
    if (KnowledgeGraphError.isInstance(error)) throw error;
    throw refuse(`${where} could not be read`, error);
  } finally {
    await reader.close();
  }
}
