// Runnable example: `DCG_DEMO=1 pnpm --filter kg-api start` in one terminal (demo vocabulary), then
// `KG_URL=http://127.0.0.1:<port> pnpm --filter @dcg/kg-client example` in another.
import { createKgClient, KgClientError, toPlainRows } from '@dcg/kg-client';

const kg = createKgClient({
  baseUrl: process.env.KG_URL ?? 'http://127.0.0.1:8081',
  timeoutMs: 5_000,
});

try {
  // 1. Search returns IRIs only, best first.
  const page = await kg.search('data contract', { limit: 5 });
  console.log(`${page.totalResults} matches`, page.results);

  // 2. One SPARQL call fetches labels, definitions and the hierarchy of the whole page.
  for (const concept of await kg.describe(page.results, { lang: ['en'] })) {
    console.log(`${concept.label?.value ?? concept.iri}: ${concept.definitions[0]?.value ?? '-'}`);
    console.log('  broader:', concept.broader, 'narrower:', concept.narrower);
  }

  // 3. Any SPARQL of the subset, with typed bindings turned into plain values.
  const results = await kg.select<'concept' | 'label'>(`
    PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
    SELECT ?concept ?label WHERE { ?concept skos:prefLabel ?label FILTER(lang(?label) = "it") }
    ORDER BY ?label LIMIT 3`);
  console.log(toPlainRows(results));

  // 4. Every page of a search, fetched lazily.
  let count = 0;
  for await (const _iri of kg.searchAll('data', { pageSize: 20 }).iris()) count += 1;
  console.log(`searchAll walked ${count} IRIs`);
} catch (error) {
  if (KgClientError.isInstance(error)) console.error(`${error.code}: ${error.message}`);
  else throw error;
  process.exitCode = 1;
}
