import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { termToId } from '@dcg/sparql-subset';
import { DataFactory, type Quad } from 'n3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KnowledgeGraphError } from '../errors';
import type { TripleStore } from '../store/triple-store';
import { TripleStoreBuilder } from '../store/triple-store-builder';
import { FileGraphPersistence } from './file-graph-persistence';

const { quad, namedNode, literal, blankNode } = DataFactory;

function storeOf(quads: Iterable<Quad>): TripleStore {
  const builder = new TripleStoreBuilder();
  for (const q of quads) builder.addQuad(q);
  return builder.build();
}

// A parser names blank nodes anew: triples are compared with their blank nodes' labels left out.
const triplesOf = (store: TripleStore) =>
  new Set(
    [...store.quads()].map(
      (q) =>
        `${q.subject.termType === 'BlankNode' ? '_:' : termToId(q.subject)} ${termToId(q.predicate)} ${termToId(q.object)}`,
    ),
  );

const sample = Array.from({ length: 30_000 }, (_, i) =>
  quad(
    i % 7 === 0 ? blankNode(`b${i}`) : namedNode(`https://ex.org/c${i}`),
    namedNode('http://www.w3.org/2004/02/skos/core#prefLabel'),
    i % 3 === 0
      ? literal(`Label ${i} "quoted" \\ é 日本 😀`, 'en')
      : i % 3 === 1
        ? literal(String(i), namedNode('http://www.w3.org/2001/XMLSchema#integer'))
        : literal(`multi\nline ${i}`),
  ),
);

describe('FileGraphPersistence', () => {
  let dir: string;
  let refused: string[];
  const options = () => ({
    onSnapshotRefused: (_sourceId: string, reason: string) => {
      refused.push(reason);
    },
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kg-files-'));
    refused = [];
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('round-trips a graph through its snapshot, with every kind of term, without parsing', async () => {
    const store = storeOf(sample);
    const generation = await new FileGraphPersistence(dir).save('big', store);
    const persistence = new FileGraphPersistence(dir);
    expect(await persistence.generations()).toEqual(new Map([['big', generation]]));
    const loaded = await persistence.load('big', options());
    expect(loaded?.from).toBe('snapshot');
    expect(loaded?.generation).toBe(generation);
    expect(loaded?.store.size).toBe(30_000);
    expect(triplesOf(loaded!.store)).toEqual(triplesOf(store));
    // The same ids: the indexes were copied, not rebuilt.
    const s = store.termId('https://ex.org/c1');
    expect(loaded!.store.termId('https://ex.org/c1')).toBe(s);
    expect(loaded!.store.count(s, 0, 0)).toBe(1);
    expect(refused).toEqual([]);
  });

  it('keeps a term that UTF-8 cannot hold (a lone surrogate) through the snapshot', async () => {
    const odd = literal('half \ud800 a pair');
    const store = storeOf([
      quad(namedNode('https://ex.org/a'), namedNode('https://ex.org/p'), odd),
    ]);
    await new FileGraphPersistence(dir).save('odd', store);
    const loaded = await new FileGraphPersistence(dir).load('odd', options());
    expect(loaded?.from).toBe('snapshot');
    expect(loaded!.store.termId(termToId(odd))).toBeGreaterThan(0);
  });

  it.each([
    [
      'a damaged byte',
      (b: Buffer) => {
        b[b.length >> 1] = (b[b.length >> 1] as number) ^ 0xff;
        return b;
      },
      /checksum mismatch/,
    ],
    ['a truncated file', (b: Buffer) => b.subarray(0, b.length - 100), /truncated/],
    [
      'a foreign file',
      () => Buffer.from(`PK\u0003\u0004${'zip bytes '.repeat(30)}`),
      /not a dcg graph snapshot/,
    ],
    [
      'another format version',
      (b: Buffer) => {
        b.writeUInt32LE(99, 8);
        return b;
      },
      /format 99; this version reads formats 1 to 3 only/,
    ],
  ])(
    'refuses %s with a clear reason and rebuilds the graph from its triples',
    async (_name, damage, reason) => {
      const store = storeOf(sample);
      await new FileGraphPersistence(dir).save('big', store);
      const file = join(dir, 'graphs', 'big.snapshot');
      await writeFile(file, damage(await readFile(file)));
      const loaded = await new FileGraphPersistence(dir).load('big', options());
      expect(loaded?.from).toBe('triples');
      expect(refused).toHaveLength(1);
      expect(refused[0]).toMatch(reason);
      expect(triplesOf(loaded!.store)).toEqual(triplesOf(store));
      // The rebuilt graph's snapshot was written again: the next start-up uses it.
      const again = await new FileGraphPersistence(dir).load('big', options());
      expect(again?.from).toBe('snapshot');
      expect(again?.store.size).toBe(store.size);
    },
  );

  it('refuses a snapshot of another save of the graph (a save interrupted between the two files)', async () => {
    const first = storeOf(sample.slice(0, 10));
    const second = storeOf(sample.slice(10, 15));
    const persistence = new FileGraphPersistence(dir);
    await persistence.save('g', first);
    const stale = await readFile(join(dir, 'graphs', 'g.snapshot'));
    const generation = await persistence.save('g', second);
    await writeFile(join(dir, 'graphs', 'g.snapshot'), stale);
    const loaded = await new FileGraphPersistence(dir).load('g', options());
    expect(refused[0]).toMatch(/holds generation .* not the stored graph's/);
    expect(loaded?.generation).toBe(generation);
    expect(triplesOf(loaded!.store)).toEqual(triplesOf(second));
  });

  it('loads and stamps a graph stored before snapshots (N-Triples only)', async () => {
    await new FileGraphPersistence(dir).generations();
    await writeFile(
      join(dir, 'graphs', 'old.nt'),
      '<urn:a> <urn:b> "c" .\n<urn:a> <urn:b> "d" .\n',
    );
    const persistence = new FileGraphPersistence(dir);
    const loaded = await persistence.load('old', options());
    expect(loaded?.from).toBe('triples');
    expect(loaded?.store.size).toBe(2);
    expect((await persistence.generations()).get('old')).toBe(loaded?.generation);
    expect((await persistence.load('old', options()))?.from).toBe('snapshot');
  });

  it('answers no graph for a source without one, and removes both files', async () => {
    const persistence = new FileGraphPersistence(dir);
    expect(await persistence.load('none')).toBeUndefined();
    await persistence.save('x', storeOf(sample.slice(0, 3)));
    await persistence.remove('x');
    expect(await readdir(join(dir, 'graphs'))).toEqual([]);
    expect(await persistence.generations()).toEqual(new Map());
  });

  it('reports damaged triples with no usable snapshot as a PERSISTENCE error', async () => {
    const persistence = new FileGraphPersistence(dir);
    await persistence.save('x', storeOf(sample.slice(0, 3)));
    await rm(join(dir, 'graphs', 'x.snapshot'));
    await writeFile(join(dir, 'graphs', 'x.nt'), '<urn:a> <urn:b> "unterminated .\n');
    const error = await persistence.load('x').catch((e: unknown) => e);
    expect(KnowledgeGraphError.isInstance(error) && error.code).toBe('persistence');
  });
});
