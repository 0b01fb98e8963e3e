import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnService } from '@dcg/testing-process';

/** The writer key the test kg-api accepts (`Authorization: Bearer …`). */
export const WRITER_KEY = 'writer-key-0123456789abcdef';

export const SKOS = 'http://www.w3.org/2004/02/skos/core#';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

/** A short SKOS vocabulary in Turtle: 6 triples. */
export const TURTLE = `@prefix skos: <${SKOS}> .
@prefix ex: <https://ex.org/> .
ex:water skos:prefLabel "Water"@en ; skos:definition "A clear liquid"@en .
ex:water-quality skos:prefLabel "Water quality"@en ; skos:broader ex:water .
ex:river skos:prefLabel "River"@en ; skos:note "flows into the sea with water"@en .
`;

/** RDF/XML with blank nodes nested `depth` deep (refused before parsing past kg-api's limit). */
export function deepRdfXml(depth: number): string {
  return `<rdf:RDF xmlns:rdf="${RDF}" xmlns:skos="${SKOS}">\n<rdf:Description rdf:about="https://ex.org/root">${'<skos:narrower><rdf:Description>'.repeat(depth)}${'</rdf:Description></skos:narrower>'.repeat(depth)}</rdf:Description>\n</rdf:RDF>\n`;
}

/** The real kg-api as its own process, with the source `vocab` and a folder of the test's own. */
export interface KgApiProcess {
  readonly url: string;
  /** A temporary folder for the test's files; kg-api keeps its data in `dir/data`. */
  readonly dir: string;
  close(): Promise<void>;
}

/**
 * Starts apps/kg-api as an operator would (no import of the app: packages stand below apps),
 * with the source `vocab` that takes uploads, `extraSources` after it and the writer key.
 *
 * @example
 * const kg = await startKgApiProcess();
 * await runCli(['ingest', 'vocab', file, '--url', kg.url, '--key', WRITER_KEY], {});
 */
export async function startKgApiProcess(extraSources: unknown[] = []): Promise<KgApiProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'kg-cli-'));
  const config = join(dir, 'kg-api.json');
  await writeFile(
    config,
    JSON.stringify({
      sources: [
        {
          id: 'vocab',
          name: 'vocab',
          modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
        },
        ...extraSources,
      ],
      auth: { apiKeys: [{ name: 'ci', key: WRITER_KEY }] },
    }),
  );
  const app = await spawnService({
    appDir: fileURLToPath(new URL('../../../../apps/kg-api/', import.meta.url)),
    env: { DCG_CONFIG: config, DCG_DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'warn' },
  }).catch(async (error: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    url: app.url,
    dir,
    close: async () => {
      await app.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
