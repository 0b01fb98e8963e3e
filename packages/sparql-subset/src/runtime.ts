import { SparqlSubsetError } from './sparql-subset-error';
import type { TripleSource } from './triple-source';

/** A solution under construction: one slot per variable, `undefined` when unbound. */
export type Row = (string | undefined)[];

/**
 * Yielded through the operators, in place of a row, when evaluation has run for a while without
 * handing control back: the consumer awaits the event loop (so timers, aborts and other requests
 * get their turn) and continues. It never reaches the results.
 */
export const PAUSE: Row = [];

/** Per-evaluation state shared by every operator of a plan. */
export interface Runtime {
  readonly source: TripleSource;
  /** Counts a unit of work; every so often checks the deadline and the abort signal. */
  tick(): void;
  /** Set by `tick` when it is time to yield {@link PAUSE}; the yielder clears it. */
  wantsPause: boolean;
  /**
   * Counts a unit of work (`tick`) and says whether the operator should yield {@link PAUSE} now,
   * clearing `wantsPause` as it does: `if (rt.pauseDue()) yield PAUSE;`.
   */
  pauseDue(): boolean;
  /** Records that control went back to the event loop. */
  breathed(): void;
  /**
   * Depth of sub-evaluations that cannot pause: an EXISTS inside an expression no operator
   * evaluates (an ORDER BY key), run in one go for each row.
   */
  unpausable: number;
  /**
   * The answers of EXISTS patterns for the row whose expression an operator is evaluating through
   * `withExistsAnswers`, by EXISTS id; undefined elsewhere.
   */
  existsAnswers: Map<number, boolean> | undefined;
  /** The EXISTS whose answer the expression being evaluated asked for (before `EXISTS_NEEDED`). */
  existsNeeded: { id: number; pattern: (row: Row, rt: Runtime) => Iterable<Row> } | undefined;
  /** Results of sub-plans that do not depend on the incoming row, by plan node id. */
  readonly memo: Map<number, Row[]>;
  readonly width: number;
  /**
   * Leading rows of the root operator's output that the consumer will drop (a root OFFSET with
   * neither ORDER BY nor DISTINCT). A root scan may skip them inside the index and lower this.
   */
  offset: number;
}

/** How often (in units of work) the clock and the signal are read. */
const CHECK_EVERY = 1024;
/** Longest stretch of synchronous work between two returns to the event loop. */
export const PAUSE_AFTER_MS = 2;
/**
 * Default longest stretch of synchronous work allowed when evaluation cannot pause (an EXISTS
 * inside an ORDER BY key is evaluated in one go for each row).
 */
export const DEFAULT_MAX_BLOCK_MS = 200;

export function createRuntime(
  source: TripleSource,
  width: number,
  options: {
    deadline: number | undefined;
    signal: AbortSignal | undefined;
    timeoutMs: number | undefined;
    maxBlockMs: number;
  },
): Runtime {
  let work = 0;
  let lastBreath = Date.now();
  const { deadline, signal, timeoutMs, maxBlockMs } = options;
  const rt: Runtime = {
    source,
    memo: new Map(),
    width,
    offset: 0,
    wantsPause: false,
    unpausable: 0,
    existsAnswers: undefined,
    existsNeeded: undefined,
    tick() {
      if ((++work & (CHECK_EVERY - 1)) !== 0) return;
      checkLimits(deadline, signal, timeoutMs);
      const busy = Date.now() - lastBreath;
      if (busy >= PAUSE_AFTER_MS) rt.wantsPause = true;
      // Only inside a part that cannot pause: elsewhere a late pause is the machine's doing (the
      // process descheduled, a garbage collection), and the deadline covers it.
      if (rt.unpausable > 0 && busy > maxBlockMs)
        throw new SparqlSubsetError(
          'too_expensive',
          `Part of the query (an EXISTS inside an ORDER BY key) ran ${busy} ms without handing control back, more than ${maxBlockMs} ms`,
        );
    },
    pauseDue() {
      rt.tick();
      if (!rt.wantsPause) return false;
      rt.wantsPause = false;
      return true;
    },
    breathed() {
      lastBreath = Date.now();
      rt.wantsPause = false;
    },
  };
  return rt;
}

/** The first real row of a sub-evaluation, skipping pauses (a sub-evaluation cannot await). */
export function hasRow(rows: Iterable<Row>): boolean {
  for (const row of rows) if (row !== PAUSE) return true;
  return false;
}

/** All real rows of a sub-evaluation. */
export function collectRows(rows: Iterable<Row>): Row[] {
  const out: Row[] = [];
  for (const row of rows) if (row !== PAUSE) out.push(row);
  return out;
}

export function checkLimits(
  deadline: number | undefined,
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): void {
  if (signal?.aborted)
    throw new SparqlSubsetError('aborted', 'Query evaluation was aborted', {
      cause: signal.reason,
    });
  if (deadline !== undefined && Date.now() > deadline)
    throw new SparqlSubsetError('timeout', `Query evaluation took longer than ${timeoutMs} ms`);
}
