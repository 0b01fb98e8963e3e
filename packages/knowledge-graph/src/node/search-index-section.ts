import type { Postings, SearchPredicate } from '../search/postings';
import type { SearchIndexData } from '../search/search-index-data';

/**
 * The search index section of a graph snapshot (format 3): a 4-byte length of a JSON header
 * (0 when the snapshot holds no index), the header (predicates, languages, counts), then the
 * index's typed arrays as they are in memory (see {@link SearchIndexData}), in a fixed order.
 * The snapshot's trailer checksum covers it like every other section.
 */
interface SectionHeader {
  predicates: SearchPredicate[];
  languages: string[];
  docs: number;
  /** Postings word ids (some may have no entries). */
  words: number;
  /** Words of the vocabulary (those with entries). */
  vocabulary: number;
  entries: number;
  wordBytes: number;
  wideLangs: boolean;
}

/** The header is small (predicates and language tags); more is damage. */
const MAX_HEADER_BYTES = 1 << 24;

const bytesOf = (array: ArrayBufferView): Uint8Array =>
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/** The section's chunks for `data`, or for no index. */
export function encodeSearchIndexSection(data: SearchIndexData | undefined): Uint8Array[] {
  const length = Buffer.alloc(4);
  if (data === undefined) return [length];
  const { postings } = data;
  const words = Buffer.from(data.sortedWords.join(' '), 'utf8');
  const header: SectionHeader = {
    predicates: data.predicates,
    languages: data.languages,
    docs: data.docSubjects.length,
    words: postings.frequencies.length,
    vocabulary: data.sortedWords.length,
    entries: postings.docs.length,
    wordBytes: words.length,
    wideLangs: postings.langs instanceof Int32Array,
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  length.writeUInt32LE(json.length, 0);
  return [
    length,
    json,
    ...arraysOf(data.docSubjects, words, data.sortedIds, postings).map(bytesOf),
  ];
}

function arraysOf(
  docSubjects: Uint32Array,
  words: Uint8Array,
  sortedIds: Uint32Array,
  p: Postings,
): ArrayBufferView[] {
  return [
    docSubjects,
    words,
    sortedIds,
    p.starts,
    p.frequencies,
    p.maxImpacts,
    p.docs,
    p.impacts,
    p.langs,
    p.literals,
    p.lengths,
    p.predicates,
  ];
}

/** A section read but not yet checked (see {@link checkSearchIndexSection}). */
export type RawSearchIndexSection = { header: SectionHeader; arrays: ArrayBufferView[] };

/**
 * Reads the section with `fill` (which fills a byte array from the snapshot, false when it
 * ends first); undefined when the snapshot holds no index. Throws a message on damage.
 */
export async function readSearchIndexSection(
  fill: (target: Uint8Array) => Promise<boolean>,
): Promise<RawSearchIndexSection | undefined> {
  const length = Buffer.alloc(4);
  if (!(await fill(length))) throw new SectionError('is truncated');
  const headerBytes = length.readUInt32LE(0);
  if (headerBytes === 0) return undefined;
  if (headerBytes > MAX_HEADER_BYTES) throw new SectionError('has a damaged search index');
  const json = Buffer.alloc(headerBytes);
  if (!(await fill(json))) throw new SectionError('is truncated');
  const header = parseHeader(json);
  const { docs, words, vocabulary, entries, wordBytes } = header;
  const arrays: ArrayBufferView[] = [
    new Uint32Array(docs),
    Buffer.alloc(wordBytes),
    new Uint32Array(vocabulary),
    new Uint32Array(words + 1),
    new Uint32Array(words),
    new Float32Array(words),
    new Int32Array(entries),
    new Float32Array(entries),
    header.wideLangs ? new Int32Array(entries) : new Uint16Array(entries),
    new Uint32Array(entries),
    new Uint16Array(entries),
    new Uint16Array(entries),
  ];
  for (const array of arrays)
    if (!(await fill(bytesOf(array)))) throw new SectionError('is truncated');
  return { header, arrays };
}

/** A damaged or truncated section: its message completes "<the snapshot> ...". */
export class SectionError extends Error {}

const isCount = (n: unknown): n is number =>
  typeof n === 'number' && Number.isInteger(n) && n >= 0 && n < 2 ** 31;

function parseHeader(json: Buffer): SectionHeader {
  let parsed: Partial<SectionHeader>;
  try {
    parsed = JSON.parse(json.toString('utf8'));
  } catch {
    throw new SectionError('has a damaged search index (its header is not JSON)');
  }
  const ok =
    typeof parsed === 'object' &&
    parsed !== null &&
    Array.isArray(parsed.predicates) &&
    parsed.predicates.every(
      (p) =>
        typeof p?.iri === 'string' && typeof p.weight === 'number' && Number.isFinite(p.weight),
    ) &&
    Array.isArray(parsed.languages) &&
    parsed.languages.length > 0 &&
    parsed.languages.every((l) => typeof l === 'string') &&
    [parsed.docs, parsed.words, parsed.vocabulary, parsed.entries, parsed.wordBytes].every(
      isCount,
    ) &&
    typeof parsed.wideLangs === 'boolean' &&
    (parsed.wideLangs || parsed.languages.length <= 0x10000);
  if (!ok) throw new SectionError('has a damaged search index (bad header)');
  return parsed as SectionHeader;
}

/**
 * The index data of a section, checked against the store it belongs to (`terms` dictionary ids,
 * 1-based): every id and range in bounds, the words sorted and distinct, so that a damaged
 * section is refused here rather than misread by a search.
 */
export function checkSearchIndexSection(
  raw: RawSearchIndexSection,
  terms: number,
): SearchIndexData {
  const damaged = (what: string) => new SectionError(`has a damaged search index (${what})`);
  const { header } = raw;
  const [docSubjects, wordBytes, sortedIds, starts, frequencies, maxImpacts, docs, impacts] =
    raw.arrays as [
      Uint32Array,
      Buffer,
      Uint32Array,
      Uint32Array,
      Uint32Array,
      Float32Array,
      Int32Array,
      Float32Array,
    ];
  const [langs, literals, lengths, predicates] = raw.arrays.slice(8) as [
    Uint16Array | Int32Array,
    Uint32Array,
    Uint16Array,
    Uint16Array,
  ];
  for (const s of docSubjects) if (s < 1 || s > terms) throw damaged('document subjects');
  const sortedWords = header.vocabulary === 0 ? [] : wordBytes.toString('utf8').split(' ');
  if (sortedWords.length !== header.vocabulary) throw damaged('word list');
  for (let i = 0; i < sortedWords.length; i++) {
    if (sortedWords[i] === '' || (i > 0 && !(sortedWords[i - 1]! < sortedWords[i]!)))
      throw damaged('word list');
    if (sortedIds[i]! >= header.words) throw damaged('word ids');
  }
  if (starts[0] !== 0 || starts[header.words] !== header.entries) throw damaged('postings');
  const languageCount = header.languages.length;
  const predicateCount = header.predicates.length;
  for (let w = 0; w < header.words; w++) {
    if (starts[w + 1]! < starts[w]!) throw damaged('postings');
    const most = maxImpacts[w]!;
    if (frequencies[w]! > header.docs || !Number.isFinite(most)) throw damaged('postings');
    // Search skips documents by the words' largest impacts: each must bound its word's entries.
    const end = starts[w + 1]!;
    for (let k = starts[w]!; k < end; k++) {
      if (
        docs[k]! < 0 ||
        docs[k]! >= header.docs ||
        langs[k]! < 0 ||
        langs[k]! >= languageCount ||
        literals[k]! < 1 ||
        literals[k]! > terms ||
        predicates[k]! >= predicateCount ||
        !Number.isFinite(impacts[k]!) ||
        impacts[k]! > most
      )
        throw damaged('postings');
    }
  }
  return {
    predicates: header.predicates,
    languages: header.languages,
    docSubjects,
    sortedWords,
    sortedIds,
    postings: {
      starts,
      frequencies,
      maxImpacts,
      docs,
      impacts,
      langs,
      literals,
      lengths,
      predicates,
    },
  };
}
