import { endianness } from 'node:os';
import { crc32 } from 'node:zlib';
import { KnowledgeGraphError } from '../errors';
import type { SearchIndexData } from '../search/search-index-data';
import { PackedTerms, slotCountFor } from '../store/packed-terms';
import { TermDictionary } from '../store/term-dictionary';
import type { TripleIndex } from '../store/triple-index';
import { TripleStore } from '../store/triple-store';
import {
  checkSearchIndexSection,
  encodeSearchIndexSection,
  type RawSearchIndexSection,
  readSearchIndexSection,
  SectionError,
} from './search-index-section';

/**
 * The binary snapshot of a {@link TripleStore}: its dictionary and its three indexes as they are
 * in memory, so that loading is reading typed arrays, never a parse or a decoding of terms.
 *
 * Layout (little-endian): a 64-byte header (magic `DCGKGSNP`, format version, counts, the
 * graph's generation, the size of the terms' hash table, a CRC-32 of the header itself), then
 * the sections — the terms' end offsets, the terms' UTF-8 bytes, the terms' hash table (see
 * {@link PackedTerms}), the ill-formed terms as JSON, and for SPO, POS and OSP the offsets,
 * second and third keys, then the search index section (see `search-index-section.ts`; empty
 * when the snapshot holds no index) — then an 8-byte trailer: the CRC-32 of every section and
 * `END1`.
 *
 * Format 2 is format 3 without the search index section: it still loads, with no index (the
 * caller builds it).
 * Format 1 (before 2026-11) had each term's byte length instead of end offsets and no hash
 * table: it still loads, its hash table built on the way (a second or so at 10M triples).
 */
const MAGIC = 'DCGKGSNP';
/** Bumped whenever the layout changes: an unknown format is refused, never misread. */
export const SNAPSHOT_FORMAT_VERSION = 3;
/** The older formats that still load. */
const FORMAT_WITH_LENGTHS = 1;
const FORMAT_WITHOUT_INDEX = 2;
const HEADER_BYTES = 64;
const TRAILER_BYTES = 8;
const TRAILER_MAGIC = 'END1';
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
export function* encodeSnapshot(
  store: TripleStore,
  generation: string,
  searchIndex?: SearchIndexData,
): Generator<Uint8Array> {
  requireLittleEndian();
  const packed = store.terms.packed();
  const count = packed.size;
  const illFormedJson = Buffer.from(JSON.stringify([...packed.illFormed]), 'utf8');
  const keys = store.spo.offsets.length;

  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(SNAPSHOT_FORMAT_VERSION, 8);
  header.writeUInt32LE(HEADER_BYTES, 12);
  header.writeUInt32LE(count, 16);
  header.writeUInt32LE(store.size, 20);
  header.writeDoubleLE(packed.bytes.length, 24);
  header.writeUInt32LE(keys, 32);
  header.writeUInt32LE(illFormedJson.length, 36);
  generationBytes(generation).copy(header, 40);
  header.writeUInt32LE(packed.slots.length, 56);
  header.writeUInt32LE(crc32(header.subarray(0, 60)), 60);
  yield header;

  let checksum = 0;
  const section = (array: ArrayBufferView): Uint8Array => {
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    checksum = crc32(bytes, checksum);
    return bytes;
  };
  yield section(packed.offsets);
  yield section(packed.bytes);
  yield section(packed.slots);
  yield section(illFormedJson);
  for (const order of ORDERS) {
    const index = store[order];
    if (index.offsets.length !== keys) throw new Error(`the ${order} index has other keys`);
    for (const array of [index.offsets, index.second, index.third]) yield section(array);
  }
  for (const chunk of encodeSearchIndexSection(searchIndex)) yield section(chunk);
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
  slots: number;
} {
  if (header.toString('latin1', 0, 8) !== MAGIC)
    throw refuse(`${where} is not a dcg graph snapshot (its first bytes are not "${MAGIC}")`);
  const formatVersion = header.readUInt32LE(8);
  if (
    formatVersion !== SNAPSHOT_FORMAT_VERSION &&
    formatVersion !== FORMAT_WITHOUT_INDEX &&
    formatVersion !== FORMAT_WITH_LENGTHS
  )
    throw refuse(
      `${where} is a graph snapshot of format ${formatVersion}; this version reads formats ${FORMAT_WITH_LENGTHS} to ${SNAPSHOT_FORMAT_VERSION} only`,
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
    slots: header.readUInt32LE(56),
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
): Promise<{ store: TripleStore; generation: string; searchIndex?: SearchIndexData }> {
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

    const oldFormat = header.formatVersion === FORMAT_WITH_LENGTHS;
    if (!oldFormat && header.slots !== slotCountFor(count))
      throw refuse(`${where} has a damaged header (inconsistent counts)`);
    const offsets = new Uint32Array(count + 1);
    if (oldFormat) {
      // Format 1: the byte length of each term, summed here into end offsets.
      if (!(await reader.fill(new Uint8Array(offsets.buffer, 4)))) throw truncated();
      for (let id = 1; id <= count; id++)
        offsets[id] = (offsets[id] as number) + (offsets[id - 1] as number);
    } else if (!(await reader.fill(new Uint8Array(offsets.buffer)))) throw truncated();
    const bytes = Buffer.allocUnsafe(termBytes);
    if (!(await reader.fill(bytes))) throw truncated();
    let slots: Uint32Array | undefined;
    if (!oldFormat) {
      slots = new Uint32Array(header.slots);
      if (!(await reader.fill(new Uint8Array(slots.buffer)))) throw truncated();
    }
    const illFormedBytes = Buffer.alloc(header.illFormedBytes);
    if (!(await reader.fill(illFormedBytes))) throw truncated();
    const illFormed = parseIllFormed(illFormedBytes, count, where);
    const indexes: TripleIndex[] = [];
    for (const order of ORDERS) {
      const offsets = new Uint32Array(keys);
      const second = new Uint32Array(triples);
      const third = new Uint32Array(triples);
      for (const array of [offsets, second, third])
        if (!(await reader.fill(new Uint8Array(array.buffer)))) throw truncated();
      indexes.push({ order, offsets, second, third });
    }
    let rawIndex: RawSearchIndexSection | undefined;
    if (header.formatVersion === SNAPSHOT_FORMAT_VERSION) {
      try {
        rawIndex = await readSearchIndexSection((target) => reader.fill(target));
      } catch (error) {
        if (error instanceof SectionError) throw refuse(`${where} ${error.message}`);
        throw error;
      }
    }
    const expected = reader.checksum;
    const trailer = Buffer.alloc(TRAILER_BYTES);
    if (!(await reader.fill(trailer, false))) throw truncated();
    if (trailer.toString('latin1', 4, 8) !== TRAILER_MAGIC) throw truncated();
    if (trailer.readUInt32LE(0) !== expected)
      throw refuse(`${where} is damaged (checksum mismatch)`);
    if (!(await reader.atEnd())) throw refuse(`${where} has bytes after its end`);
    // The offsets are checked before a format 1 hash table is built over them.
    const damagedOffsets = PackedTerms.checkOffsets(bytes, offsets, illFormed);
    if (damagedOffsets !== undefined) throw refuse(`${where} has ${damagedOffsets}`);
    const parts = {
      bytes,
      offsets,
      slots: slots ?? PackedTerms.hashTable(bytes, offsets, illFormed),
      illFormed,
    };
    const damage = PackedTerms.check(parts);
    if (damage !== undefined) throw refuse(`${where} has ${damage}`);
    const [spo, pos, osp] = indexes as [TripleIndex, TripleIndex, TripleIndex];
    for (const index of indexes) {
      if (index.offsets[keys - 1] !== triples)
        throw refuse(`${where} has a damaged ${index.order} index`);
    }
    let searchIndex: SearchIndexData | undefined;
    try {
      searchIndex = rawIndex && checkSearchIndexSection(rawIndex, count);
    } catch (error) {
      if (error instanceof SectionError) throw refuse(`${where} ${error.message}`);
      throw error;
    }
    const store = new TripleStore(TermDictionary.fromPacked(new PackedTerms(parts)), spo, pos, osp);
    return searchIndex
      ? { store, generation: header.generation, searchIndex }
      : { store, generation: header.generation };
  } catch (error) {
    if (KnowledgeGraphError.isInstance(error)) throw error;
    throw refuse(`${where} could not be read`, error);
  } finally {
    await reader.close();
  }
}

/** The ill-formed terms of a snapshot (`[[id, term], ...]` as JSON), by id. */
function parseIllFormed(json: Buffer, count: number, where: string): Map<number, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json.toString('utf8'));
  } catch (error) {
    throw refuse(`${where} has damaged terms`, error);
  }
  if (!Array.isArray(parsed)) throw refuse(`${where} has damaged terms`);
  const terms = new Map<number, string>();
  for (const entry of parsed as unknown[]) {
    if (
      !Array.isArray(entry) ||
      !Number.isInteger(entry[0]) ||
      typeof entry[1] !== 'string' ||
      entry[0] < 1 ||
      entry[0] > count
    )
      throw refuse(`${where} has damaged terms`);
    terms.set(entry[0] as number, entry[1]);
  }
  return terms;
}
