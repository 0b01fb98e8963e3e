import type { MarketplaceInstance } from '@dcg/governance-schema';

/** One instance found by {@link rankLexically}, with why it matched. */
export interface LexicalHit {
  readonly instance: MarketplaceInstance;
  /** Higher is better; only comparable within one search. */
  readonly score: number;
  /** The fields that matched, e.g. `['name', 'component:Orders']`. */
  readonly matched: readonly string[];
}

const fieldWeights = {
  id: 8,
  name: 4,
  domain: 3,
  componentName: 2,
  kind: 1,
  componentId: 1,
} as const;

/**
 * Ranks instances against a query by words: every word of the query that starts a word of the
 * system's id, name, domain, kind or of a component's name or id adds that field's weight; an exact
 * system or component id wins outright. Instances matching no word are left out. Ties keep the
 * order given (the marketplace's order).
 *
 * @example
 * const hits = rankLexically('orders finance', instances, 10);
 */
export function rankLexically(
  query: string,
  instances: readonly MarketplaceInstance[],
  limit: number,
): LexicalHit[] {
  const exact = query.trim().toLowerCase();
  const words = tokenize(query);
  if (words.length === 0 && exact === '') return [];
  const hits: LexicalHit[] = [];
  for (const instance of instances) {
    let score = 0;
    const matched = new Set<string>();
    if (instance.systemId.toLowerCase() === exact) {
      score += 1000;
      matched.add('systemId');
    }
    for (const component of instance.components) {
      if (component.id.toLowerCase() === exact) {
        score += 500;
        matched.add(`component:${component.name ?? component.id}`);
      }
    }
    const fields: { label: string; weight: number; words: string[] }[] = [
      { label: 'systemId', weight: fieldWeights.id, words: tokenize(instance.systemId) },
      { label: 'name', weight: fieldWeights.name, words: tokenize(instance.name) },
      {
        label: 'domain',
        weight: fieldWeights.domain,
        words: tokenize(domainOf(instance.systemId)),
      },
      { label: 'kind', weight: fieldWeights.kind, words: tokenize(instance.kind) },
      ...instance.components.flatMap((component) => [
        {
          label: `component:${component.name ?? component.id}`,
          weight: fieldWeights.componentName,
          words: tokenize(component.name ?? ''),
        },
        {
          label: `component:${component.name ?? component.id}`,
          weight: fieldWeights.componentId,
          words: tokenize(component.id),
        },
      ]),
    ];
    for (const word of words) {
      let best = 0;
      let bestLabel = '';
      for (const field of fields) {
        if (field.weight > best && field.words.some((candidate) => candidate.startsWith(word))) {
          best = field.weight;
          bestLabel = field.label;
        }
      }
      if (best > 0) {
        score += best;
        matched.add(bestLabel);
      }
    }
    if (score > 0) hits.push({ instance, score, matched: [...matched] });
  }
  // Array.prototype.sort is stable: equal scores keep the marketplace's order.
  hits.sort((a, b) => b.score - a.score);
  return hits.slice(0, limit);
}

function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** `urn:dmb:dp:<domain>:<name>:<major>` → `<domain>`. */
function domainOf(systemId: string): string {
  const parts = systemId.split(':');
  return parts.length >= 5 && parts[0] === 'urn' ? (parts[3] ?? '') : '';
}
