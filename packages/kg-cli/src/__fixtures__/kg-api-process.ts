import { type SpawnedApp, spawnApp } from '@dcg/testing-process';

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
export type KgApiProcess = SpawnedApp;

/**
 * Starts apps/kg-api as an operator would (no import of the app: packages stand below apps),
 * with the source `vocab` that takes uploads, `extraSources` after it and the writer key; its
 * temporary folder `dir` holds the test's files too.
 *
 * @example
 * const kg = await startKgApiProcess();
 * await runCli(['ingest', 'vocab', file, '--url', kg.url, '--key', WRITER_KEY], {});
 */
export function startKgApiProcess(extraSources: unknown[] = []): Promise<KgApiProcess> {
  return spawnApp('kg-api', {
    config: {
      sources: [
        {
          id: 'vocab',
          name: 'vocab',
          modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
        },
        ...extraSources,
      ],
      auth: { apiKeys: [{ name: 'ci', key: WRITER_KEY }] },
    },
  });
}
