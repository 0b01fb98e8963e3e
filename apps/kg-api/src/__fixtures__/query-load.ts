import { SKOS } from './test-servers';

/** N-Triples of `concepts` concepts with a label each. */
export function labelledConcepts(concepts: number): string {
  return Array.from(
    { length: concepts },
    (_, i) => `<https://ex.org/c${i}> <${SKOS}prefLabel> "label ${i}"@en .`,
  ).join('\n');
}

/**
 * A query that runs until its deadline on {@link labelledConcepts}: a three-way cross product
 * whose filter only the join can test. `salt` makes each text new (no parse cache).
 */
export function expensiveQuery(salt: number): string {
  return `# ${salt}
SELECT * { ?a <${SKOS}prefLabel> ?x . ?b <${SKOS}prefLabel> ?y . ?c <${SKOS}prefLabel> ?z
  FILTER(STR(?x) = CONCAT(STR(?y), STR(?z))) }`;
}

/** Percentile of sorted numbers (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/**
 * Sends `count` expensive queries at once to `url` and polls `/health` one request after the other
 * until they have all ended. Outcomes: each query's status and time to answer, each health
 * latency.
 */
export async function queryLoad(
  url: string,
  count: number,
): Promise<{
  queries: Array<{
    status: number;
    ms: number;
    /** Time the service spent on it (Server-Timing `app`). */
    serverMs: number;
    type: string | undefined;
    retryAfter: string | null;
  }>;
  health: Array<{ status: number; ms: number }>;
}> {
  let running = count;
  const queries = Array.from({ length: count }, async (_, i) => {
    const started = performance.now();
    const response = await fetch(`${url}/v1/graph/sparql`, {
      method: 'POST',
      headers: { 'content-type': 'application/sparql-query' },
      body: expensiveQuery(Date.now() * 100 + i),
    });
    const body = (await response.json()) as { type?: string };
    running--;
    return {
      status: response.status,
      ms: performance.now() - started,
      serverMs: Number(/app;dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1]),
      type: body.type,
      retryAfter: response.headers.get('retry-after'),
    };
  });
  const health: Array<{ status: number; ms: number }> = [];
  while (running > 0) {
    const started = performance.now();
    const response = await fetch(`${url}/health`);
    await response.arrayBuffer();
    health.push({ status: response.status, ms: performance.now() - started });
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { queries: await Promise.all(queries), health };
}
