import type { SearchHit } from '@dcg/governance-schema';
import type { InstanceContracts } from './hit-contracts';
import { explainHit } from './hit-explanation';
import type { FusedHit } from './hybrid-ranking';
import type { InstanceDocument } from './instance-text';

/**
 * The hit of the search API for one ranked instance: what it is, its score, how it was found (in
 * words too) and, when known, its data contracts.
 *
 * @example
 * searchHit(index.document(fused.key), fused, contracts.get(fused.key));
 */
export function searchHit(
  doc: InstanceDocument,
  h: FusedHit,
  contracts: InstanceContracts | undefined,
): SearchHit {
  const { matchedBy, why } = explainHit(h);
  const { systemId, environment, name, kind, domain } = doc;
  return {
    systemId,
    environment,
    name,
    kind,
    ...(domain === undefined ? {} : { domain }),
    score: Number(h.score.toFixed(6)),
    matchedBy,
    why,
    ...(h.lexical
      ? { lexical: { rank: h.lexical.rank, matchedTerms: h.lexical.matchedTerms } }
      : {}),
    ...(h.vector
      ? { vector: { rank: h.vector.rank, similarity: Number(h.vector.similarity.toFixed(4)) } }
      : {}),
    ...(contracts === undefined
      ? {}
      : {
          compliance: contracts.compliance,
          dataContracts: contracts.dataContracts.map((c) => ({ ...c })),
        }),
  };
}
