import { SparqlSubsetError } from './sparql-subset-error';
import type { TripleSource } from './triple-source';

/** A solution under construction: one slot per variable, `undefined` when unbound. */
export type Row = (string | undefined)[];

/** Per-evaluation state shared by every operator of a plan. */
export interface Runtime {
  readonly source: TripleSource;
  /** Counts a unit of work; every so often checks the deadline and the abort signal. */
  tick(): void;
  /** Results of sub-plans that do not depend on the incoming row, by plan node id. */
  readonly memo: Map<number, Row[]>;
  readonly width: number;
}

/** How often (in units of work) the clock and the signal are read. */
const CHECK_EVERY = 1024;

export function createRuntime(
  source: TripleSource,
  width: number,
  options: {
    deadline: number | undefined;
    signal: AbortSignal | undefined;
    timeoutMs: number | undefined;
  },
): Runtime {
  let work = 0;
  const { deadline, signal, timeoutMs } = options;
  return {
    source,
    memo: new Map(),
    width,
    tick() {
      if ((++work & (CHECK_EVERY - 1)) !== 0) return;
      checkLimits(deadline, signal, timeoutMs);
    },
  };
}

export function checkLimits(
  deadline: number | undefined,
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): void {
  if (signal?.aborted)
    throw new SparqlSubsetError('ABORTED', 'Query evaluation was aborted', {
      cause: signal.reason,
    });
  if (deadline !== undefined && Date.now() > deadline)
    throw new SparqlSubsetError('TIMEOUT', `Query evaluation took longer than ${timeoutMs} ms`);
}
