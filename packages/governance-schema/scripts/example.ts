// Runnable example: `pnpm --filter @dcg/governance-schema example`. Checks a search answer as a
// client would before trusting it, and reads a search query as the server does.
import { MarketplaceSearchQuerySchema, SearchResultSchema } from '@dcg/governance-schema';

const answer = SearchResultSchema.safeParse({
  mode: 'lexical',
  fallback: 'embeddings search is disabled',
  model: null,
  pending: 0,
  hits: [
    {
      systemId: 'urn:dmb:dp:finance:invoices:1',
      environment: 'production',
      name: 'Invoices',
      kind: 'system',
      score: 0.5,
      matchedBy: ['words'],
      why: 'words: invoice',
      lexical: { rank: 1, matchedTerms: ['invoice'] },
      compliance: 'compliant',
      dataContracts: [{ id: 'urn:dmb:cmp:finance:invoices:1:port', status: 'compliant' }],
    },
  ],
  offset: 0,
});
console.log(answer.success ? answer.data.hits.map((hit) => hit.name) : answer.error.issues);

const query = MarketplaceSearchQuerySchema.parse({ q: ' invoices ' });
console.log(query); // { q: 'invoices', limit: 10, offset: 0 } (every environment)

const wrong = SearchResultSchema.safeParse({
  mode: 'semantic',
  model: null,
  pending: 0,
  hits: [],
  offset: 0,
});
if (!wrong.success) console.log(wrong.error.issues[0]?.path); // [ 'mode' ]
