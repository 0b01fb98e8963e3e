import { generateMarketplace, QUALITY_QUERIES } from './src/__fixtures__/marketplace-corpus';
import { instanceDocument } from './src/instance-text';
import { instanceKey, LexicalIndex } from './src/lexical-index';

const docs = generateMarketplace({ environment: 'p', count: 10000 }).map(instanceDocument);
const lex = new LexicalIndex();
for (const d of docs) lex.upsert(d);
for (let round = 0; round < 2; round++) {
  const per: Record<string, number[]> = {};
  for (let i = 0; i < 300; i++) {
    const text = QUALITY_QUERIES[i % QUALITY_QUERIES.length]!.q;
    const t0 = performance.now();
    lex.search(text, { environment: 'p', limit: 50 });
    (per[text] ??= []).push(performance.now() - t0);
  }
  const all = Object.values(per)
    .flat()
    .sort((a, b) => a - b);
  console.log('lex p50', all[150]!.toFixed(2), 'p90', all[270]!.toFixed(2));
  if (round === 1)
    for (const [q, t] of Object.entries(per)
      .sort((a, b) => b[1][0]! - a[1][0]!)
      .slice(0, 5))
      console.log(q, t.map((x) => x.toFixed(1)).join(' '));
}
