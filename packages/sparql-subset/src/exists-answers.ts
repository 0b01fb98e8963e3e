import { PAUSE, type Row, type Runtime } from './runtime';

/**
 * Thrown by an EXISTS whose answer for the row under test is not known yet, so that the operator
 * evaluating the expression can find it without blocking. A constant rather than an Error: no
 * stack is captured on this path, which is taken once per EXISTS and row.
 */
export const EXISTS_NEEDED: unique symbol = Symbol('sparql-subset.exists-needed');

/**
 * Evaluates an expression over one row from inside an operator, where pauses can reach the event
 * loop. An EXISTS it meets is answered by running its pattern here, forwarding the pattern's
 * {@link PAUSE}s; the expression is then evaluated again with that answer. Expressions are pure
 * and the answers are kept for the row, so the result is the one a single synchronous evaluation
 * gives, with short-circuits intact (an EXISTS that `&&` or `||` skips is never run).
 *
 * @example
 * ```ts
 * const pass = hasExists(node.expression) ? yield* withExistsAnswers(condition, r, rt) : condition(r, rt);
 * ```
 */
export function* withExistsAnswers<T>(
  evaluate: (row: Row, rt: Runtime) => T,
  row: Row,
  rt: Runtime,
): Generator<Row, T, undefined> {
  const answers = new Map<number, boolean>();
  for (;;) {
    const outer = rt.existsAnswers;
    rt.existsAnswers = answers;
    try {
      return evaluate(row, rt);
    } catch (error) {
      if (error !== EXISTS_NEEDED) throw error;
    } finally {
      rt.existsAnswers = outer;
    }
    const needed = rt.existsNeeded as NonNullable<Runtime['existsNeeded']>;
    rt.existsNeeded = undefined;
    let found = false;
    for (const match of needed.pattern(row, rt)) {
      if (match === PAUSE) {
        yield PAUSE;
        continue;
      }
      found = true;
      break;
    }
    answers.set(needed.id, found);
  }
}
