// Runnable example: `pnpm --filter @dcg/kg-schema example`. Checks a search page and SPARQL
// results as a server or a client would, before trusting them.
import { isSelectResults, parseSparqlResults, SearchResponseSchema } from '@dcg/kg-schema';

const page = SearchResponseSchema.safeParse({
  results: ['https://example.org/concept/water'],
  totalResults: 1,
  offset: 0,
  limit: 10,
  hasNextPage: false,
});
console.log(page.success ? page.data.results : page.error.issues);

const checked = parseSparqlResults<'label'>({
  head: { vars: ['label'] },
  results: { bindings: [{ label: { type: 'literal', value: 'Water', 'xml:lang': 'en' } }] },
});
if (checked.success && isSelectResults(checked.data)) {
  console.log(checked.data.results.bindings[0]?.label?.value); // Water
}

const wrong = parseSparqlResults({ head: {}, results: { bindings: [] } });
if (!wrong.success) console.log(wrong.issues[0]); // { code: 'custom', segments: ['head', 'vars'], path: '$.head.vars', message: 'SELECT results need head.vars' }
