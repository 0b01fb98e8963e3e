import { describe, expect, it } from 'vitest';
import { changedEntries, summary } from './w3c/conformance';
import { W3C_EXPECTATIONS } from './w3c/expectations';
import { runW3cSuite } from './w3c/run-w3c-test';

// Every test of the W3C folders run has its expected outcome in w3c/expectations.ts (passes, or
// rejected with which problems and why); any difference fails, named entry by entry. After a
// change meant to alter outcomes, `pnpm --filter @dcg/sparql-subset w3c:expectations` rewrites
// the list: review its diff.
describe('W3C SPARQL test suite', () => {
  it('answers every test as the conformance list expects', async () => {
    const results = await runW3cSuite();
    console.log(summary(results, W3C_EXPECTATIONS));
    const changes = changedEntries(results, W3C_EXPECTATIONS);
    expect(
      changes,
      `${changes.length} W3C tests differ from w3c/expectations.ts:\n${changes.join('\n')}`,
    ).toEqual([]);
  }, 120_000);
});
