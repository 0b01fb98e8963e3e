import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as RDF from '@rdfjs/types';
import { Parser, Store } from 'n3';

const MF = 'http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#';
const QT = 'http://www.w3.org/2001/sw/DataAccess/tests/test-query#';
const DAWGT = 'http://www.w3.org/2001/sw/DataAccess/tests/test-dawg#';
const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

/** One entry of a W3C test manifest, with file paths resolved. */
export interface TestCase {
  /** The entry's IRI in the manifest (stable across releases of the suite). */
  iri: string;
  name: string;
  kind: 'evaluation' | 'positive-syntax' | 'negative-syntax';
  queryFile: string;
  dataFiles: string[];
  graphDataFiles: string[];
  resultFile: string | undefined;
}

function one(store: Store, subject: RDF.Term, predicate: string): RDF.Term | undefined {
  return store.getObjects(subject as RDF.Quad_Subject, predicate, null)[0];
}

function list(store: Store, head: RDF.Term | undefined): RDF.Term[] {
  const out: RDF.Term[] = [];
  let node = head;
  while (node && node.value !== `${RDF_NS}nil`) {
    const first = one(store, node, `${RDF_NS}first`);
    if (first) out.push(first);
    node = one(store, node, `${RDF_NS}rest`);
  }
  return out;
}

function path(term: RDF.Term): string {
  return fileURLToPath(term.value);
}

/** Reads the manifest of a test folder (Turtle, read with n3). */
export function readManifest(folder: string): TestCase[] {
  const file = join(folder, 'manifest.ttl');
  const store = new Store(
    new Parser({ baseIRI: pathToFileURL(file).href }).parse(readFileSync(file, 'utf8')),
  );
  const manifest = store.getSubjects(`${RDF_NS}type`, `${MF}Manifest`, null)[0];
  if (!manifest) throw new Error(`No mf:Manifest in ${file}`);
  const cases: TestCase[] = [];
  for (const entry of list(store, one(store, manifest, `${MF}entries`))) {
    const type = one(store, entry, `${RDF_NS}type`)?.value ?? '';
    const approval = one(store, entry, `${DAWGT}approval`)?.value;
    if (approval === `${DAWGT}Withdrawn`) continue;
    const name = one(store, entry, `${MF}name`)?.value ?? entry.value;
    const action = one(store, entry, `${MF}action`);
    if (!action) continue;
    if (type === `${MF}QueryEvaluationTest`) {
      const query = one(store, action, `${QT}query`);
      if (!query) continue;
      const result = one(store, entry, `${MF}result`);
      cases.push({
        iri: entry.value,
        name,
        kind: 'evaluation',
        queryFile: path(query),
        dataFiles: store.getObjects(action, `${QT}data`, null).map(path),
        graphDataFiles: store.getObjects(action, `${QT}graphData`, null).map(path),
        resultFile: result ? path(result) : undefined,
      });
    } else if (type === `${MF}PositiveSyntaxTest11` || type === `${MF}PositiveSyntaxTest`) {
      cases.push({
        iri: entry.value,
        name,
        kind: 'positive-syntax',
        queryFile: path(action),
        dataFiles: [],
        graphDataFiles: [],
        resultFile: undefined,
      });
    } else if (type === `${MF}NegativeSyntaxTest11` || type === `${MF}NegativeSyntaxTest`) {
      cases.push({
        iri: entry.value,
        name,
        kind: 'negative-syntax',
        queryFile: path(action),
        dataFiles: [],
        graphDataFiles: [],
        resultFile: undefined,
      });
    }
  }
  return cases;
}
