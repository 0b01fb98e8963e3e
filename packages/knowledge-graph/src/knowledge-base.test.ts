import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KnowledgeBase } from './knowledge-base';
import { FileGraphPersistence } from './node/file-graph-persistence';
import { parseRdf } from './parse-rdf';
import { SearchConfigSchema, type SourceConfig } from './source-config';

const skos = 'http://www.w3.org/2004/02/skos/core#';
const search = SearchConfigSchema.parse({});

function source(id: string): SourceConfig {
  return {
    id,
    name: id,
    modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
  };
}

async function quads(turtle: string) {
  const parsed = await parseRdf(`@prefix skos: <${skos}> .\n${turtle}`, 'turtle');
  if (!parsed.success) throw new Error(parsed.issues[0]?.message);
  return parsed.data;
}

describe('KnowledgeBase with FileGraphPersistence', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kb-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('persists graphs and finds them again after a restart', async () => {
    const kb = await KnowledgeBase.open({
      sources: [source('a')],
      search,
      persistence: new FileGraphPersistence(dir),
    });
    const info = await kb.replaceGraph('a', await quads('<urn:x> skos:prefLabel "Wetland" .'));
    expect(info.triples).toBe(1);
    const reopened = await KnowledgeBase.open({
      sources: [source('a')],
      search,
      persistence: new FileGraphPersistence(dir),
    });
    expect(reopened.search('wetland', { offset: 0, limit: 10 }).results).toEqual(['urn:x']);
    expect(reopened.graphInfo('a').triples).toBe(1);
  });

  it('swaps the store of a source at once, keeping other sources', async () => {
    const kb = await KnowledgeBase.open({
      sources: [source('a'), source('b')],
      search,
      persistence: new FileGraphPersistence(dir),
    });
    await kb.replaceGraph('a', await quads('<urn:x> skos:prefLabel "Old" .'));
    await kb.replaceGraph('b', await quads('<urn:y> skos:prefLabel "Other" .'));
    const before = kb.stores();
    await kb.replaceGraph(
      'a',
      await quads('<urn:x> skos:prefLabel "New" . <urn:z> skos:prefLabel "Newer" .'),
    );
    const after = kb.stores();
    // A reader holding the old array still sees the old graph whole.
    expect(before.reduce((n, s) => n + s.size, 0)).toBe(2);
    expect(after.reduce((n, s) => n + s.size, 0)).toBe(3);
    expect(kb.search('old', { offset: 0, limit: 10 }).totalResults).toBe(0);
    expect(kb.search('new', { offset: 0, limit: 10 }).results[0]).toBe('urn:x');
  });

  it('removes a graph durably', async () => {
    const kb = await KnowledgeBase.open({
      sources: [source('a')],
      search,
      persistence: new FileGraphPersistence(dir),
    });
    await kb.replaceGraph('a', await quads('<urn:x> skos:prefLabel "Marsh" .'));
    await kb.removeGraph('a');
    expect(kb.search('marsh', { offset: 0, limit: 10 }).totalResults).toBe(0);
    const reopened = await KnowledgeBase.open({
      sources: [source('a')],
      search,
      persistence: new FileGraphPersistence(dir),
    });
    expect(reopened.size).toBe(0);
  });

  it('removes the triples of a source no longer configured, and stale temporary files', async () => {
    const kb = await KnowledgeBase.open({
      sources: [source('a'), source('gone')],
      search,
      persistence: new FileGraphPersistence(dir),
    });
    await kb.replaceGraph('gone', await quads('<urn:x> skos:prefLabel "Bog" .'));
    const stale = join(dir, 'graphs', 'a.nt.123.456.tmp');
    await writeFile(stale, '<urn:half> <urn:written');
    // Two minutes old: a fresh one may be another instance's save in progress, and stays.
    const old = new Date(Date.now() - 120_000);
    await utimes(stale, old, old);
    await writeFile(join(dir, 'graphs', 'b.snapshot.9.9.tmp'), 'being written');
    const removed: string[] = [];
    const reopened = await KnowledgeBase.open({
      sources: [source('a')],
      search,
      persistence: new FileGraphPersistence(dir),
      onRemovedOrphan: (id) => removed.push(id),
    });
    expect(removed).toEqual(['gone']);
    expect(reopened.size).toBe(0);
    expect(await readdir(join(dir, 'graphs'))).toEqual(['b.snapshot.9.9.tmp']);
  });

  it('starts from snapshots, and sees what another instance on the same folder saved after a refresh', async () => {
    const loaded: string[] = [];
    const open = () =>
      KnowledgeBase.open({
        sources: [source('a')],
        search,
        persistence: new FileGraphPersistence(dir),
        onGraphLoaded: (event) => loaded.push(`${event.sourceId} ${event.from} ${event.reason}`),
      });
    const first = await open();
    const second = await open();
    await first.replaceGraph('a', await quads('<urn:x> skos:prefLabel "Moor" .'));
    expect(second.search('moor', { offset: 0, limit: 10 }).results).toEqual([]);
    expect(await second.refresh()).toEqual(['a']);
    expect(second.search('moor', { offset: 0, limit: 10 }).results).toEqual(['urn:x']);
    expect(loaded).toEqual(['a snapshot changed elsewhere']);
    expect(await first.refresh()).toEqual([]);
    await second.removeGraph('a');
    expect(await first.refresh()).toEqual(['a']);
    expect(first.size).toBe(0);
    await first.replaceGraph('a', await quads('<urn:y> skos:prefLabel "Fen" .'));
    const third = await open();
    expect(third.search('fen', { offset: 0, limit: 10 }).results).toEqual(['urn:y']);
    expect(loaded.at(-1)).toBe('a snapshot start-up');
  });

  it('reads the search index from the snapshot at start-up, and builds it for other search settings', async () => {
    const loaded: string[] = [];
    const open = (settings = search) =>
      KnowledgeBase.open({
        sources: [source('a')],
        search: settings,
        persistence: new FileGraphPersistence(dir),
        onGraphLoaded: (event) => loaded.push(`${event.from} ${event.searchIndex}`),
      });
    const first = await open();
    const turtle = Array.from(
      { length: 300 },
      (_, i) => `<urn:c${i}> skos:prefLabel "Moor ${i}"@en ; skos:altLabel "Fen ${i % 7}"@de .`,
    ).join('\n');
    await first.replaceGraph('a', await quads(turtle));
    const restarted = await open();
    expect(loaded).toEqual(['snapshot snapshot']);
    for (const term of ['moor', 'fen 3', 'moor 12', 'mo', 'moro'])
      expect(restarted.search(term, { offset: 2, limit: 10 })).toEqual(
        first.search(term, { offset: 2, limit: 10 }),
      );
    expect(restarted.graphInfo('a').searchableDocuments).toBe(300);
    // Other weights: the saved index does not fit, so it is built.
    const reweighted = await open(
      SearchConfigSchema.parse({ predicates: [{ iri: `${skos}altLabel`, weight: 5 }] }),
    );
    expect(loaded.at(-1)).toBe('snapshot built');
    expect(reweighted.search('fen 3', { offset: 0, limit: 1 }).totalResults).toBe(300);
    expect(reweighted.search('moor', { offset: 0, limit: 1 }).totalResults).toBe(0);
  });

  it('applies concurrent writes to one source in order, in memory and on disk alike', async () => {
    const kb = await KnowledgeBase.open({
      sources: [source('a')],
      search,
      persistence: new FileGraphPersistence(dir),
    });
    const first = kb.replaceGraph('a', await quads('<urn:x> skos:prefLabel "First" .'));
    const removal = kb.removeGraph('a');
    const last = kb.replaceGraph('a', await quads('<urn:y> skos:prefLabel "Last" .'));
    await Promise.all([first, removal, last]);
    expect(kb.search('last', { offset: 0, limit: 10 }).results).toEqual(['urn:y']);
    expect(kb.search('first', { offset: 0, limit: 10 }).totalResults).toBe(0);
    const reopened = await KnowledgeBase.open({
      sources: [source('a')],
      search,
      persistence: new FileGraphPersistence(dir),
    });
    expect(reopened.search('last', { offset: 0, limit: 10 }).results).toEqual(['urn:y']);
  });

  it('answers a search page with its paging and whether more follow', async () => {
    const kb = await KnowledgeBase.open({
      sources: [source('a')],
      search,
      persistence: new FileGraphPersistence(dir),
    });
    await kb.replaceGraph(
      'a',
      await quads(
        '<urn:1> skos:prefLabel "lake" . <urn:2> skos:prefLabel "lake" . <urn:3> skos:prefLabel "lake" .',
      ),
    );
    const first = kb.search('lake', { offset: 0, limit: 2 });
    expect(first).toMatchObject({ totalResults: 3, offset: 0, limit: 2, hasNextPage: true });
    expect(first.results).toHaveLength(2);
    expect(kb.search('lake', { offset: 2, limit: 2 })).toMatchObject({
      results: [expect.any(String)],
      offset: 2,
      hasNextPage: false,
    });
  });

  it('rejects unknown sources with unknown_source', async () => {
    const kb = await KnowledgeBase.open({
      sources: [source('a')],
      search,
      persistence: new FileGraphPersistence(dir),
    });
    expect(() => kb.replaceGraph('nope', [])).toThrowError(/no source "nope"/);
  });
});
