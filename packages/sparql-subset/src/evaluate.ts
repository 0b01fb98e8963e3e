import type { CheckedQuery } from './algebra';
import { type Plan, planOf } from './plan';
import {
  checkLimits,
  createRuntime,
  DEFAULT_MAX_BLOCK_MS,
  PAUSE,
  PAUSE_AFTER_MS,
  type Row,
  type Runtime,
} from './runtime';
import { SparqlSubsetError } from './sparql-subset-error';
import { idToJson, type SparqlJsonTerm } from './term-ids';
import { compareSortKeys, type SortKey, sortKey } from './term-values';
import { type QuerySource, toTripleSource } from './triple-source';

/**
 * Options of {@link evaluate}.
 *
 * @example
 * ```ts
 * const options: EvaluateOptions = { timeoutMs: 5000, maxRows: 10_000, signal: request.signal };
 * ```
 */
export interface EvaluateOptions {
  /** Aborts evaluation with `aborted`. */
  signal?: AbortSignal;
  /** Ends evaluation with `timeout` after this many milliseconds. */
  timeoutMs?: number;
  /** Ends evaluation with `row_limit_exceeded` when the answer would have more rows. */
  maxRows?: number;
  /**
   * Longest synchronous stretch (ms) of a part that cannot hand control back (an EXISTS inside an
   * ORDER BY key, evaluated per row); beyond it evaluation ends with `too_expensive`. Default 200.
   * An EXISTS in a FILTER, an OPTIONAL condition or a BIND pauses like any pattern and is bounded
   * by `timeoutMs` only.
   */
  maxBlockMs?: number;
}

/**
 * W3C SPARQL 1.1 Query Results JSON: bindings for SELECT (an unbound variable is absent), a
 * boolean for ASK. Serialise it as `application/sparql-results+json`.
 *
 * @example
 * ```ts
 * const results: SparqlResults = await evaluate(parsed.query, store);
 * if ('boolean' in results) console.log(results.boolean);
 * else for (const row of results.results.bindings) console.log(row.label?.value);
 * ```
 */
export type SparqlResults =
  | { head: { vars: string[] }; results: { bindings: Record<string, SparqlJsonTerm>[] } }
  | { head: Record<string, never>; boolean: boolean };

/**
 * Hands control back to the event loop. `setImmediate` runs after the loop's I/O phase, so other
 * requests get through between two slices even when several evaluations take turns;
 * `setTimeout(0)` did not (expired timers run back to back, and two evaluations kept the timer
 * phase busy, starving I/O).
 */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

function checkOptions(options: EvaluateOptions): void {
  const { timeoutMs, maxRows, signal, maxBlockMs } = options;
  if (maxBlockMs !== undefined && !(typeof maxBlockMs === 'number' && maxBlockMs > 0))
    throw new SparqlSubsetError('invalid_options', 'maxBlockMs must be a positive number');
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && timeoutMs > 0))
    throw new SparqlSubsetError('invalid_options', 'timeoutMs must be a positive number');
  if (maxRows !== undefined && !(Number.isInteger(maxRows) && maxRows >= 0))
    throw new SparqlSubsetError('invalid_options', 'maxRows must be a non-negative integer');
  if (signal !== undefined && typeof signal?.aborted !== 'boolean')
    throw new SparqlSubsetError('invalid_options', 'signal must be an AbortSignal');
}

/**
 * Evaluates a checked query over an n3 Store, any RDF/JS DatasetCore, or an array of them (their
 * union is the default graph). Rows are produced lazily, so LIMIT without ORDER BY stops early.
 *
 * @example
 * ```ts
 * import { Parser, Store } from 'n3';
 * const store = new Store(new Parser().parse('<urn:a> <urn:label> "A"@en .'));
 * const parsed = parseQuery('SELECT ?l { <urn:a> <urn:label> ?l }');
 * if (parsed.success) console.log(await evaluate(parsed.query, store, { timeoutMs: 1000 }));
 * ```
 */
export async function evaluate(
  query: CheckedQuery,
  source: QuerySource,
  options: EvaluateOptions = {},
): Promise<SparqlResults> {
  checkOptions(options);
  const timeoutMs = options.timeoutMs;
  const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
  const signal = options.signal;
  checkLimits(deadline, signal, timeoutMs);
  const plan = planOf(query);
  checkLimits(deadline, signal, timeoutMs);
  const rt = createRuntime(toTripleSource(source), plan.width, {
    deadline,
    signal,
    timeoutMs,
    maxBlockMs: options.maxBlockMs ?? DEFAULT_MAX_BLOCK_MS,
  });
  // Operators yield PAUSE after PAUSE_AFTER_MS of work; rows can also arrive fast for a long time.
  let lastBreath = Date.now();
  const pause = async () => {
    await breathe();
    lastBreath = Date.now();
    rt.breathed();
    checkLimits(deadline, signal, timeoutMs);
  };
  const maybeBreathe = async () => {
    if (Date.now() - lastBreath >= PAUSE_AFTER_MS) await pause();
  };

  const solutions = plan.root(new Array(plan.width), rt);
  if (query.form === 'ASK') {
    for (const row of solutions) {
      if (row !== PAUSE) return { head: {}, boolean: true };
      await pause();
    }
    return { head: {}, boolean: false };
  }

  let rows: Iterable<Row> = solutions;
  if (plan.order.length > 0) {
    // DISTINCT may drop sorted rows, so only a plain LIMIT bounds what the sort keeps.
    const keep =
      query.limit === undefined || query.distinct ? undefined : query.offset + query.limit;
    rows = await sortRows(solutions, plan.order, keep, rt, pause);
  }

  const vars = [...query.variables];
  const slots = plan.projection;
  const bindings: Record<string, SparqlJsonTerm>[] = [];
  const seen = query.distinct ? new Set<string>() : undefined;
  // Without ORDER BY and DISTINCT the first OFFSET rows of the root are dropped as they come: a
  // root scan may skip them in its index (rt.offset), the rest is counted off here.
  const rootOffset = plan.order.length === 0 && !query.distinct;
  if (rootOffset) rt.offset = query.offset;
  let skip = rootOffset ? 0 : query.offset;
  const limit = query.limit ?? Number.POSITIVE_INFINITY;
  if (limit === 0) return { head: { vars }, results: { bindings } };
  for (const row of rows) {
    if (row === PAUSE) {
      await pause();
      continue;
    }
    if (seen) {
      const key = slots.map((slot) => row[slot] ?? '\u0001').join('\u0000');
      if (seen.has(key)) continue;
      seen.add(key);
    }
    if (rt.offset > 0) {
      rt.offset--;
      rt.tick();
      continue;
    }
    if (skip > 0) {
      skip--;
      rt.tick();
      continue;
    }
    const binding: Record<string, SparqlJsonTerm> = {};
    for (let i = 0; i < slots.length; i++) {
      const value = row[slots[i] as number];
      if (value !== undefined) binding[vars[i] as string] = idToJson(value);
    }
    bindings.push(binding);
    if (options.maxRows !== undefined && bindings.length > options.maxRows)
      throw new SparqlSubsetError(
        'row_limit_exceeded',
        `The answer has more than ${options.maxRows} rows`,
      );
    if (bindings.length >= limit) break;
    if ((bindings.length & 255) === 0) await maybeBreathe();
  }
  return { head: { vars }, results: { bindings } };
}

/**
 * ORDER BY. With LIMIT only the first `keep` rows are kept: a bounded max-heap whose top is the
 * worst row kept, so a row that cannot make the cut costs one comparison and memory stays at
 * `keep` rows. Equal keys keep arrival order (the arrival number breaks ties), as the full sort does.
 */
async function sortRows(
  solutions: Iterable<Row>,
  order: Plan['order'],
  keep: number | undefined,
  rt: Runtime,
  pause: () => Promise<void>,
): Promise<Row[]> {
  type Keyed = { row: Row; keys: SortKey[]; seq: number };
  const compare = (a: Keyed, b: Keyed): number => {
    for (let i = 0; i < order.length; i++) {
      const c = compareSortKeys(a.keys[i] as SortKey, b.keys[i] as SortKey);
      if (c !== 0) return order[i]?.descending ? -c : c;
    }
    return a.seq - b.seq;
  };
  const keyed: Keyed[] = [];
  let seq = 0;
  for (const row of solutions) {
    if (row === PAUSE) {
      await pause();
      continue;
    }
    rt.tick();
    if (keep === 0) continue;
    const item: Keyed = { row, keys: order.map((o) => sortKey(o.key(row, rt))), seq: seq++ };
    if (keep === undefined) keyed.push(item);
    else if (keyed.length < keep) heapPush(keyed, item, compare);
    else if (compare(item, keyed[0] as Keyed) < 0) heapReplaceTop(keyed, item, compare);
  }
  keyed.sort(compare);
  return keyed.map((item) => item.row);
}

/** Adds to a max-heap (the greatest item under `compare` at index 0). */
function heapPush<T>(heap: T[], item: T, compare: (a: T, b: T) => number): void {
  let i = heap.length;
  heap.push(item);
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (compare(heap[parent] as T, item) >= 0) break;
    heap[i] = heap[parent] as T;
    i = parent;
  }
  heap[i] = item;
}

/** Replaces the greatest item of a max-heap and restores the heap. */
function heapReplaceTop<T>(heap: T[], item: T, compare: (a: T, b: T) => number): void {
  const n = heap.length;
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= n) break;
    const right = left + 1;
    const child = right < n && compare(heap[right] as T, heap[left] as T) > 0 ? right : left;
    if (compare(heap[child] as T, item) <= 0) break;
    heap[i] = heap[child] as T;
    i = child;
  }
  heap[i] = item;
}
