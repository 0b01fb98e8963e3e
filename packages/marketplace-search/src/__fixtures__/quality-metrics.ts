import type { HeldOutQuery, QueryCategory } from './held-out-marketplace';

/** Metrics of one category of queries (means over its queries). */
export interface CategoryMetrics {
  category: QueryCategory | 'all';
  queries: number;
  /** Relevant systems in the top 5 / min(5, relevant); undefined for `no-answer`. */
  recallAt5: number | undefined;
  /** 1 / rank of the first relevant hit (0 if none); undefined for `no-answer`. */
  mrr: number | undefined;
  /**
   * Relevant hits in the top 5 / hits shown in the top 5 (at most 5). No hit at all counts 0 for
   * a query with an answer and 1 for a `no-answer` query, whose every hit is irrelevant.
   */
  precisionAt5: number;
  /** Hits returned per query (at most the limit asked for). */
  meanHits: number;
  /** Queries with no relevant hit in the top 5 (or, for `no-answer`, with any hit). */
  misses: string[];
}

const CATEGORIES: QueryCategory[] = [
  'exact-name',
  'words',
  'paraphrase',
  'synonym',
  'typo',
  'no-answer',
];

/**
 * Scores ranked system ids against the judged queries, per category and over all queries with an
 * answer (`all`; `no-answer` counts in its precision only).
 *
 * @example
 * const table = qualityMetrics(HELD_OUT_QUERIES, results);
 */
export function qualityMetrics(
  queries: readonly HeldOutQuery[],
  ranked: readonly string[][],
): CategoryMetrics[] {
  const per = queries.map((query, i) => {
    const ids = ranked[i] ?? [];
    const top = ids.slice(0, 5);
    const relevant = new Set(query.relevant);
    const found = top.filter((id) => relevant.has(id)).length;
    if (relevant.size === 0) {
      return {
        query,
        recall: undefined,
        rr: undefined,
        precision: top.length === 0 ? 1 : 0,
        hits: ids.length,
        miss: top.length > 0,
      };
    }
    const first = ids.findIndex((id) => relevant.has(id));
    return {
      query,
      recall: found / Math.min(5, relevant.size),
      rr: first === -1 ? 0 : 1 / (first + 1),
      precision: top.length === 0 ? 0 : found / top.length,
      hits: ids.length,
      miss: found === 0,
    };
  });
  const mean = (xs: number[]) =>
    xs.length === 0 ? undefined : xs.reduce((a, b) => a + b, 0) / xs.length;
  const summarize = (category: QueryCategory | 'all', rows: typeof per): CategoryMetrics => ({
    category,
    queries: rows.length,
    recallAt5: mean(rows.flatMap((r) => (r.recall === undefined ? [] : [r.recall]))),
    mrr: mean(rows.flatMap((r) => (r.rr === undefined ? [] : [r.rr]))),
    precisionAt5: mean(rows.map((r) => r.precision)) ?? 0,
    meanHits: mean(rows.map((r) => r.hits)) ?? 0,
    misses: rows.filter((r) => r.miss).map((r) => r.query.q),
  });
  return [
    ...CATEGORIES.map((c) =>
      summarize(
        c,
        per.filter((r) => r.query.category === c),
      ),
    ),
    summarize('all', per),
  ];
}

/**
 * The metrics as a fixed-width table, one line per category.
 *
 * @example
 * console.log(formatMetrics('hybrid', table));
 */
export function formatMetrics(title: string, table: readonly CategoryMetrics[]): string {
  const f = (x: number | undefined) => (x === undefined ? '   - ' : x.toFixed(3));
  const lines = table.map(
    (m) =>
      `  ${m.category.padEnd(11)} ${String(m.queries).padStart(3)}  ${f(m.recallAt5)}  ${f(m.mrr)}  ${f(m.precisionAt5)}  ${m.meanHits.toFixed(1).padStart(5)}  ${m.misses.join(' | ')}`,
  );
  return [`${title}`, '  category      n  R@5    MRR    P@5    hits  missed', ...lines].join('\n');
}
