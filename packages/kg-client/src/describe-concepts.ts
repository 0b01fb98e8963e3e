import type { RdfTerm, SparqlSelectResults } from '@dcg/kg-schema';
import { isAbsoluteIri, isLanguageRange } from '@dcg/kg-schema';
import { KgClientError } from './kg-client-error';

const rdfs = 'http://www.w3.org/2000/01/rdf-schema#';
const skos = 'http://www.w3.org/2004/02/skos/core#';
const predicates = {
  prefLabel: `${skos}prefLabel`,
  label: `${rdfs}label`,
  altLabel: `${skos}altLabel`,
  definition: `${skos}definition`,
  broader: `${skos}broader`,
  narrower: `${skos}narrower`,
  related: `${skos}related`,
} as const;

/** A text of a concept, with its language tag when it has one. */
export interface DescribedText {
  readonly value: string;
  readonly lang?: string;
}

/** What {@link buildDescribeQuery}'s answer says about one IRI. */
export interface ConceptDescription {
  readonly iri: string;
  /** False when the graph holds none of the described statements about the IRI. */
  readonly found: boolean;
  /** The best label: a `skos:prefLabel`, else an `rdfs:label`, in the most preferred language. */
  readonly label?: DescribedText;
  /** Every `skos:prefLabel` then every `rdfs:label`, preferred languages first. */
  readonly labels: readonly DescribedText[];
  readonly altLabels: readonly DescribedText[];
  readonly definitions: readonly DescribedText[];
  /** IRIs of broader concepts (`skos:broader`, and `skos:narrower` stated the other way). */
  readonly broader: readonly string[];
  /** IRIs of narrower concepts (`skos:narrower`, and `skos:broader` stated the other way). */
  readonly narrower: readonly string[];
  /** IRIs of related concepts (`skos:related` in either direction). */
  readonly related: readonly string[];
}

/** Options of `describe`. */
export interface DescribeOptions {
  /**
   * Preferred language tags, most preferred first (`'en'` or `['de', 'en']`). Texts in other
   * languages are left out; untagged texts are always kept. Matching follows SPARQL
   * `langMatches`: `en` also matches `en-GB`, `*` any tagged text. Default: every language.
   */
  readonly lang?: string | readonly string[] | undefined;
}

/** Variables of the describe query. */
export type DescribeVariable = 'concept' | 'property' | 'value' | 'inverse';

/**
 * Builds the one SPARQL query (inside the subset the knowledge graph supports: VALUES, UNION,
 * FILTER with isLiteral/lang/langMatches) that fetches labels, alternative labels, definitions and
 * broader/narrower/related links of every IRI, both directions of the links included.
 *
 * @example
 * const query = buildDescribeQuery(['https://ex.org/c/1'], { lang: 'en' });
 */
export function buildDescribeQuery(iris: readonly string[], options: DescribeOptions = {}): string {
  const langs = normalizeLangs(options.lang);
  for (const iri of iris) {
    if (!isAbsoluteIri(iri)) {
      throw new KgClientError('invalid_argument', `${JSON.stringify(iri)} is not an absolute IRI`);
    }
  }
  const langFilter =
    langs.length === 0
      ? ''
      : `\n    FILTER(!isLiteral(?value) || lang(?value) = "" || ${langs
          .map((lang) => `langMatches(lang(?value), "${lang}")`)
          .join(' || ')})`;
  const { broader, narrower, related } = predicates;
  return `SELECT ?concept ?property ?value ?inverse WHERE {
  VALUES ?concept { ${iriList(iris)} }
  { VALUES ?property { ${iriList(Object.values(predicates))} }
    ?concept ?property ?value .${langFilter} }
  UNION
  { VALUES ?inverse { ${iriList([broader, narrower, related])} }
    ?value ?inverse ?concept . }
}`;
}

function iriList(iris: readonly string[]): string {
  return iris.map((iri) => `<${iri}>`).join(' ');
}

/**
 * Folds the answer of {@link buildDescribeQuery} into one description per requested IRI, in the
 * order asked. Rows about IRIs that were not asked for are ignored.
 *
 * @example
 * const descriptions = collectDescriptions(iris, await client.select(buildDescribeQuery(iris)), {});
 */
export function collectDescriptions(
  iris: readonly string[],
  results: SparqlSelectResults<string>,
  options: DescribeOptions = {},
): ConceptDescription[] {
  const langs = normalizeLangs(options.lang);
  const builders = new Map<string, Builder>();
  for (const iri of iris) builders.set(iri, newBuilder());
  for (const row of results.results.bindings) {
    const concept = row.concept;
    const value = row.value;
    if (concept?.type !== 'uri' || value === undefined) continue;
    const builder = builders.get(concept.value);
    if (builder === undefined) continue;
    const property = row.property?.type === 'uri' ? row.property.value : undefined;
    const inverse = row.inverse?.type === 'uri' ? row.inverse.value : undefined;
    if (property !== undefined) addForward(builder, property, value, langs);
    else if (inverse !== undefined) addInverse(builder, inverse, value);
  }
  return iris.map((iri) => finish(iri, builders.get(iri) ?? newBuilder(), langs));
}

interface Builder {
  found: boolean;
  prefLabels: Map<string, DescribedText>;
  labels: Map<string, DescribedText>;
  altLabels: Map<string, DescribedText>;
  definitions: Map<string, DescribedText>;
  broader: Set<string>;
  narrower: Set<string>;
  related: Set<string>;
}

function newBuilder(): Builder {
  return {
    found: false,
    prefLabels: new Map(),
    labels: new Map(),
    altLabels: new Map(),
    definitions: new Map(),
    broader: new Set(),
    narrower: new Set(),
    related: new Set(),
  };
}

function addForward(builder: Builder, property: string, value: RdfTerm, langs: string[]): void {
  const texts: Record<string, Map<string, DescribedText>> = {
    [predicates.prefLabel]: builder.prefLabels,
    [predicates.label]: builder.labels,
    [predicates.altLabel]: builder.altLabels,
    [predicates.definition]: builder.definitions,
  };
  const links: Record<string, Set<string>> = {
    [predicates.broader]: builder.broader,
    [predicates.narrower]: builder.narrower,
    [predicates.related]: builder.related,
  };
  const textTarget = texts[property];
  if (textTarget !== undefined) {
    if (value.type !== 'literal') return;
    const lang = value['xml:lang'];
    // The server filters by language too; the check here keeps an untrusted upstream honest.
    if (lang !== undefined && langs.length > 0 && preference(lang, langs) === langs.length) return;
    const text: DescribedText =
      lang === undefined ? { value: value.value } : { value: value.value, lang };
    textTarget.set(`${lang ?? ''}\u0000${value.value}`, text);
    builder.found = true;
    return;
  }
  const linkTarget = links[property];
  if (linkTarget !== undefined && value.type === 'uri') {
    linkTarget.add(value.value);
    builder.found = true;
  }
}

function addInverse(builder: Builder, inverse: string, value: RdfTerm): void {
  if (value.type !== 'uri') return;
  if (inverse === predicates.broader) builder.narrower.add(value.value);
  else if (inverse === predicates.narrower) builder.broader.add(value.value);
  else if (inverse === predicates.related) builder.related.add(value.value);
  else return;
  builder.found = true;
}

function finish(iri: string, builder: Builder, langs: string[]): ConceptDescription {
  const prefLabels = sortTexts([...builder.prefLabels.values()], langs);
  const labels = sortTexts([...builder.labels.values()], langs);
  const best = prefLabels[0] ?? labels[0];
  return {
    iri,
    found: builder.found,
    ...(best === undefined ? {} : { label: best }),
    labels: [...prefLabels, ...labels],
    altLabels: sortTexts([...builder.altLabels.values()], langs),
    definitions: sortTexts([...builder.definitions.values()], langs),
    broader: [...builder.broader].sort(),
    narrower: [...builder.narrower].sort(),
    related: [...builder.related].sort(),
  };
}

// Rank of a text: its language's position in the preference list; untagged texts right after the
// preferred languages; anything else last.
function rank(text: DescribedText, langs: string[]): number {
  if (text.lang === undefined) return langs.length;
  if (langs.length === 0) return 0;
  const index = preference(text.lang, langs);
  return index === langs.length ? langs.length + 1 : index;
}

function preference(lang: string, langs: string[]): number {
  const lower = lang.toLowerCase();
  const index = langs.findIndex(
    (wanted) => lower === wanted || wanted === '*' || lower.startsWith(`${wanted}-`),
  );
  return index === -1 ? langs.length : index;
}

function sortTexts(texts: DescribedText[], langs: string[]): DescribedText[] {
  return texts.sort(
    (a, b) =>
      rank(a, langs) - rank(b, langs) ||
      (a.lang ?? '').localeCompare(b.lang ?? '') ||
      a.value.localeCompare(b.value),
  );
}

function normalizeLangs(lang: string | readonly string[] | undefined): string[] {
  const list = lang === undefined ? [] : typeof lang === 'string' ? [lang] : [...lang];
  for (const tag of list) {
    if (!isLanguageRange(tag)) {
      throw new KgClientError('invalid_argument', `${JSON.stringify(tag)} is not a language tag`);
    }
  }
  return list.map((tag) => tag.toLowerCase());
}
