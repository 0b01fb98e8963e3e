/** The median time of a measured function, the rows its last run answered and how often it ran. */
export interface Timing {
  median: number;
  rows: number;
  runs: number;
}

/**
 * Times the functions alternately, round after round, so that load from other processes hits
 * them alike: after one warm-up call each, at least `minRounds` rounds, then more while within
 * `budgetMs` and under `maxRounds`. Each function answers its row count. Shared with
 * @dcg/knowledge-graph's benchmark (our store against Oxigraph).
 */
export async function interleaved(
  fns: (() => Promise<number>)[],
  { minRounds, maxRounds, budgetMs }: { minRounds: number; maxRounds: number; budgetMs: number },
): Promise<Timing[]> {
  const rows: number[] = [];
  for (const fn of fns) rows.push(await fn()); // warm-up
  const samples: number[][] = fns.map(() => []);
  const started = performance.now();
  let round = 0;
  while (round < minRounds || (round < maxRounds && performance.now() - started < budgetMs)) {
    for (let i = 0; i < fns.length; i++) {
      const t0 = performance.now();
      rows[i] = await (fns[i] as () => Promise<number>)();
      (samples[i] as number[]).push(performance.now() - t0);
    }
    round++;
  }
  return samples.map((list, i) => {
    list.sort((a, b) => a - b);
    return { median: list[list.length >> 1] as number, rows: rows[i] as number, runs: list.length };
  });
}
