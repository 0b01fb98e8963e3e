import { createReadStream, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type * as RDF from '@rdfjs/types';
import { Parser, Store } from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import { SparqlXmlParser } from 'sparqlxml-parse';
import { termToId } from '../../src/term-ids';

/** A solution as engine ids by variable name. */
export type Solution = Record<string, string>;

export type ExpectedResults =
  | { kind: 'bindings'; vars: string[]; solutions: Solution[]; ordered: boolean }
  | { kind: 'boolean'; value: boolean };

const RS = 'http://www.w3.org/2001/sw/DataAccess/tests/result-set#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

async function readSrx(file: string): Promise<ExpectedResults> {
  const text = readFileSync(file, 'utf8');
  const parser = new SparqlXmlParser();
  if (/<boolean>/.test(text))
    return { kind: 'boolean', value: await parser.parseXmlBooleanStream(createReadStream(file)) };
  const vars: string[] = [];
  const solutions: Solution[] = [];
  await new Promise<void>((resolve, reject) => {
    parser
      .parseXmlResultsStream(createReadStream(file))
      .on('variables', (variables: RDF.Variable[]) => vars.push(...variables.map((v) => v.value)))
      .on('data', (bindings: Record<string, RDF.Term>) => {
        const solution: Solution = {};
        for (const [name, term] of Object.entries(bindings))
          solution[name.replace(/^\?/, '')] = termToId(term);
        solutions.push(solution);
      })
      .on('error', reject)
      .on('end', resolve);
  });
  return { kind: 'bindings', vars, solutions, ordered: true };
}

type JsonTerm = { type: string; value: string; 'xml:lang'?: string; datatype?: string };

function jsonTermId(term: JsonTerm): string {
  if (term.type === 'uri') return term.value;
  if (term.type === 'bnode') return `_:${term.value}`;
  const lang = term['xml:lang'];
  if (lang) return `"${term.value}"@${lang.toLowerCase()}`;
  const datatype = term.datatype;
  if (!datatype || datatype === 'http://www.w3.org/2001/XMLSchema#string') return `"${term.value}"`;
  return `"${term.value}"^^${datatype}`;
}

/** Converts SPARQL JSON results (ours or an .srj file) to solutions of engine ids. */
export function solutionsOfJson(bindings: Record<string, JsonTerm>[]): Solution[] {
  return bindings.map((binding) => {
    const solution: Solution = {};
    for (const [name, term] of Object.entries(binding)) solution[name] = jsonTermId(term);
    return solution;
  });
}

function readSrj(file: string): ExpectedResults {
  const json = JSON.parse(readFileSync(file, 'utf8')) as {
    head: { vars?: string[] };
    boolean?: boolean;
    results?: { bindings: Record<string, JsonTerm>[] };
  };
  if (typeof json.boolean === 'boolean') return { kind: 'boolean', value: json.boolean };
  return {
    kind: 'bindings',
    vars: json.head.vars ?? [],
    solutions: solutionsOfJson(json.results?.bindings ?? []),
    ordered: true,
  };
}

async function readGraph(file: string): Promise<Store> {
  const baseIRI = pathToFileURL(file).href;
  if (file.endsWith('.rdf')) {
    const store = new Store();
    await new Promise<void>((resolve, reject) => {
      createReadStream(file)
        .pipe(new RdfXmlParser({ baseIRI }))
        .on('data', (quad: RDF.Quad) => store.addQuad(quad))
        .on('error', reject)
        .on('end', resolve);
    });
    return store;
  }
  return new Store(new Parser({ baseIRI }).parse(readFileSync(file, 'utf8')));
}

/** Result sets written in RDF with the DAWG result-set vocabulary (Turtle or RDF/XML). */
async function readRdfResultSet(file: string): Promise<ExpectedResults> {
  const store = await readGraph(file);
  const resultSet = store.getSubjects(RDF_TYPE, `${RS}ResultSet`, null)[0];
  if (!resultSet) throw new Error(`No rs:ResultSet in ${file}`);
  const bool = store.getObjects(resultSet, `${RS}boolean`, null)[0];
  if (bool) return { kind: 'boolean', value: bool.value === 'true' };
  const vars = store.getObjects(resultSet, `${RS}resultVariable`, null).map((term) => term.value);
  let ordered = false;
  const indexed: { index: number; solution: Solution }[] = [];
  for (const node of store.getObjects(resultSet, `${RS}solution`, null)) {
    const solution: Solution = {};
    for (const binding of store.getObjects(node, `${RS}binding`, null)) {
      const variable = store.getObjects(binding, `${RS}variable`, null)[0];
      const value = store.getObjects(binding, `${RS}value`, null)[0];
      if (variable && value) solution[variable.value] = termToId(value);
    }
    const index = store.getObjects(node, `${RS}index`, null)[0];
    if (index) ordered = true;
    indexed.push({ index: index ? Number(index.value) : 0, solution });
  }
  if (ordered) indexed.sort((a, b) => a.index - b.index);
  return { kind: 'bindings', vars, solutions: indexed.map((item) => item.solution), ordered };
}

/** Reads an expected result file in any format the suites use. */
export async function readExpected(file: string): Promise<ExpectedResults> {
  if (file.endsWith('.srx')) return readSrx(file);
  if (file.endsWith('.srj')) return readSrj(file);
  return readRdfResultSet(file);
}
