import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataFactory } from 'n3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KnowledgeGraphError } from '../errors';
import { FileGraphPersistence } from './file-graph-persistence';

const { quad, namedNode, literal } = DataFactory;

describe('FileGraphPersistence', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kg-files-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('round-trips a graph larger than one read chunk, with every kind of term', async () => {
    const persistence = new FileGraphPersistence(dir);
    const quads = Array.from({ length: 30_000 }, (_, i) =>
      quad(
        namedNode(`https://ex.org/c${i}`),
        namedNode('http://www.w3.org/2004/02/skos/core#prefLabel'),
        i % 3 === 0
          ? literal(`Label ${i} "quoted" \\ é 日本`, 'en')
          : i % 3 === 1
            ? literal(String(i), namedNode('http://www.w3.org/2001/XMLSchema#integer'))
            : literal(`multi\nline ${i}`),
      ),
    );
    await persistence.save('big', quads);
    const loaded = await new FileGraphPersistence(dir).load('big');
    expect(loaded).toHaveLength(quads.length);
    for (const i of [0, 1, 2, 29_999]) expect(loaded[i]!.equals(quads[i]!)).toBe(true);
    expect(await persistence.list()).toEqual(['big']);
  });

  it('reports a damaged file as a PERSISTENCE error', async () => {
    const persistence = new FileGraphPersistence(dir);
    await persistence.save('x', []);
    await writeFile(join(dir, 'graphs', 'x.nt'), '<urn:a> <urn:b> "unterminated .\n');
    const error = await persistence.load('x').catch((e: unknown) => e);
    expect(KnowledgeGraphError.isInstance(error) && error.code).toBe('persistence');
  });
});
