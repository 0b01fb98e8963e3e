import type { AlgebraNode, CheckedQuery, Expression, PatternTerm, TriplePattern } from './algebra';
import {
  type CompiledCondition,
  type CompiledExpression,
  compileCondition,
  compileExpression,
  type ExpressionContext,
} from './compile-expression';
import { EXISTS_NEEDED, withExistsAnswers } from './exists-answers';
import { allVars, certainVars, expressionVars, patternVars, possibleVars } from './plan-vars';
import { conjuncts, hasExists, pushFilters } from './push-filters';
import { hasRow, PAUSE, type Row, type Runtime } from './runtime';
import type { KeyTests, TripleCursor } from './triple-source';

/** An operator: the solutions of a sub-pattern joined with the incoming row. */
export type Operator = (row: Row, rt: Runtime) => Iterable<Row>;

/** A compiled query: the operator tree and where each variable lives in a row. */
export interface Plan {
  readonly root: Operator;
  readonly width: number;
  readonly projection: readonly number[];
  readonly order: readonly { key: CompiledExpression; descending: boolean }[];
}

type VarSet = ReadonlySet<string>;

function andAll(expressions: Expression[]): Expression {
  let out = expressions[0] as Expression;
  for (const next of expressions.slice(1)) out = { type: 'call', op: '&&', args: [out, next] };
  return out;
}

function subsetOf(names: Iterable<string>, allowed: VarSet, within: VarSet): boolean {
  for (const name of names) if (within.has(name) && !allowed.has(name)) return false;
  return true;
}

function compatibleMerge(left: Row, right: Row): Row | undefined {
  const out = left.slice();
  for (let i = 0; i < right.length; i++) {
    const value = right[i];
    if (value === undefined) continue;
    const current = out[i];
    if (current === undefined) out[i] = value;
    else if (current !== value) return undefined;
  }
  return out;
}

interface CompiledPattern {
  s: string | undefined;
  p: string | undefined;
  o: string | undefined;
  sSlot: number;
  pSlot: number;
  oSlot: number;
}

/**
 * Runs `op` from no bindings and keeps its solutions in `rt.memo` under `id`, for the parts of a
 * plan evaluated once per evaluation (callers read the memo first). Collected here, not by a
 * sub-evaluation, so that the pauses of the run reach the event loop.
 */
function* memoiseSolutions(op: Operator, id: number, rt: Runtime): Generator<Row, Row[]> {
  const rows: Row[] = [];
  for (const r of op(new Array(rt.width), rt)) {
    if (r === PAUSE) yield r;
    else rows.push(r);
  }
  rt.memo.set(id, rows);
  return rows;
}

/**
 * A FILTER: the rows of `input` for which `condition` (when given) is true. As an anti-join
 * (`excluded` given), it first drops the rows that have a match in `excluded.right`, asked of its
 * `probe` when there is one, else decided by the first solution of `right`.
 */
function filterRows(
  input: Operator,
  condition: CompiledCondition | undefined,
  conditionExists: boolean,
  excluded?: { right: Operator; probe: ((row: Row, rt: Runtime) => boolean) | undefined },
): Operator {
  const right = excluded?.right;
  const probe = excluded?.probe;
  return function* filter(row, rt) {
    for (const r of input(row, rt)) {
      if (r === PAUSE) {
        yield r;
        continue;
      }
      rt.tick();
      if (probe !== undefined) {
        if (probe(r, rt)) continue;
      } else if (right !== undefined) {
        let found = false;
        for (const match of right(r, rt)) {
          if (match === PAUSE) {
            yield match;
            continue;
          }
          found = true;
          break;
        }
        if (found) continue;
      }
      if (
        condition === undefined ||
        (conditionExists ? yield* withExistsAnswers(condition, r, rt) : condition(r, rt)) === true
      )
        yield r;
    }
  };
}

/**
 * Compiles the algebra into operators. Sub-patterns are evaluated with the incoming row
 * substituted (sideways information passing: an index lookup per binding) whenever that gives the
 * same answers as SPARQL's bottom-up semantics; where it would not (a FILTER, BIND or OPTIONAL that
 * could see an outer variable its own group does not bind), the sub-pattern is evaluated once on its
 * own and joined.
 */
class Planner implements ExpressionContext {
  private readonly slots = new Map<string, number>();
  private nextMemo = 0;
  private nextExists = 0;

  slot(name: string): number {
    let index = this.slots.get(name);
    if (index === undefined) {
      index = this.slots.size;
      this.slots.set(name, index);
    }
    return index;
  }

  get width(): number {
    return this.slots.size;
  }

  /** Variables an EXISTS inside the expression being compiled may find bound (it substitutes them). */
  private existsScope: VarSet = new Set();

  exists(expression: Extract<Expression, { type: 'exists' }>): (row: Row, rt: Runtime) => boolean {
    // EXISTS substitutes the current solution into its pattern (SPARQL §18.6).
    const probe = this.probe(expression.pattern);
    if (probe) return probe;
    const op = this.compile(expression.pattern, this.existsScope, true);
    const id = this.nextExists++;
    return (row, rt) => {
      // Inside an operator (withExistsAnswers): answered there, where the pattern can pause.
      const answers = rt.existsAnswers;
      if (answers !== undefined) {
        const answer = answers.get(id);
        if (answer !== undefined) return answer;
        rt.existsNeeded = { id, pattern: op };
        throw EXISTS_NEEDED;
      }
      // Elsewhere (an ORDER BY key) in one go, within maxBlockMs.
      rt.unpausable++;
      try {
        return hasRow(op(row, rt));
      } finally {
        rt.unpausable--;
      }
    };
  }

  private inScope<T>(scope: VarSet, compile: () => T): T {
    const saved = this.existsScope;
    this.existsScope = scope;
    try {
      return compile();
    } finally {
      this.existsScope = saved;
    }
  }

  /** Compiles an expression whose variables may be bound from `scope`. */
  expression(expression: Expression, scope: VarSet): CompiledExpression {
    return this.inScope(scope, () => compileExpression(expression, this));
  }

  /** Compiles a FILTER condition whose variables may be bound from `scope`. */
  condition(expression: Expression, scope: VarSet): CompiledCondition {
    return this.inScope(scope, () => compileCondition(expression, this));
  }

  /** The whole query's pattern; a lone triple pattern may skip a root OFFSET in its index. */
  compileRoot(node: AlgebraNode): Operator {
    if (node.type === 'bgp' && node.patterns.length === 1) {
      const names = patternVars(node.patterns[0] as TriplePattern);
      if (new Set(names).size === names.length) return this.bgp(node.patterns, new Set(), [], true);
    }
    return this.compile(node, new Set(), false);
  }

  compile(node: AlgebraNode, incoming: VarSet, substitute: boolean): Operator {
    if (!substitute && !this.safe(node, incoming)) return this.independent(node);
    switch (node.type) {
      case 'bgp':
        return this.bgp(node.patterns, incoming);
      case 'join': {
        const left = this.compile(node.left, incoming, substitute);
        const right = this.compile(
          node.right,
          new Set([...incoming, ...possibleVars(node.left)]),
          substitute,
        );
        return function* join(row, rt) {
          for (const r of left(row, rt)) {
            if (r === PAUSE) yield r;
            else yield* right(r, rt);
          }
        };
      }
      case 'leftjoin': {
        const left = this.compile(node.left, incoming, substitute);
        const leftScope = new Set([...incoming, ...possibleVars(node.left)]);
        const right = this.compile(node.right, leftScope, substitute);
        const scope = new Set([...leftScope, ...possibleVars(node.right)]);
        const condition = node.expression ? this.condition(node.expression, scope) : undefined;
        const conditionExists = node.expression !== undefined && hasExists(node.expression);
        return function* leftJoin(row, rt) {
          for (const r of left(row, rt)) {
            if (r === PAUSE) {
              yield r;
              continue;
            }
            let matched = false;
            for (const extended of right(r, rt)) {
              if (extended === PAUSE) {
                yield extended;
                continue;
              }
              rt.tick();
              if (
                condition === undefined ||
                (conditionExists
                  ? yield* withExistsAnswers(condition, extended, rt)
                  : condition(extended, rt)) === true
              ) {
                matched = true;
                yield extended;
              }
            }
            if (!matched) yield r;
          }
        };
      }
      case 'filter': {
        const scope = new Set([...incoming, ...possibleVars(node.input)]);
        if (node.input.type === 'bgp')
          return this.bgp(node.input.patterns, incoming, conjuncts(node.expression));
        const anti = this.antiJoin(node, incoming, substitute);
        if (anti) return anti;
        const input = this.compile(node.input, incoming, substitute);
        const condition = this.condition(node.expression, scope);
        return filterRows(input, condition, hasExists(node.expression));
      }
      case 'extend': {
        const input = this.compile(node.input, incoming, substitute);
        const scope = new Set([...incoming, ...possibleVars(node.input)]);
        const value = this.expression(node.expression, scope);
        const valueExists = hasExists(node.expression);
        const slot = this.slot(node.variable);
        return function* extend(row, rt) {
          for (const r of input(row, rt)) {
            if (r === PAUSE) {
              yield r;
              continue;
            }
            const computed = valueExists ? yield* withExistsAnswers(value, r, rt) : value(r, rt);
            if (computed === undefined) {
              yield r;
              continue;
            }
            const current = r[slot];
            if (current === undefined) {
              const out = r.slice();
              out[slot] = computed;
              yield out;
            } else if (current === computed) yield r;
          }
        };
      }
      case 'union': {
        const left = this.compile(node.left, incoming, substitute);
        const right = this.compile(node.right, incoming, substitute);
        return function* union(row, rt) {
          yield* left(row, rt);
          yield* right(row, rt);
        };
      }
      case 'minus': {
        const left = this.compile(node.left, incoming, substitute);
        const right = this.compile(node.right, new Set(), false);
        const id = this.nextMemo++;
        const rightSlots = [...possibleVars(node.right)].map((name) => this.slot(name));
        return function* minus(row, rt) {
          const removed = rt.memo.get(id) ?? (yield* memoiseSolutions(right, id, rt));
          for (const r of left(row, rt)) {
            if (r === PAUSE) {
              yield r;
              continue;
            }
            if (rt.pauseDue()) yield PAUSE;
            const excluded = removed.some((other) => {
              let shared = false;
              for (const slot of rightSlots) {
                const a = r[slot];
                const b = other[slot];
                if (a === undefined || b === undefined) continue;
                if (a !== b) return false;
                shared = true;
              }
              return shared;
            });
            if (!excluded) yield r;
          }
        };
      }
      case 'values': {
        const slots = node.variables.map((name) => this.slot(name));
        const table = node.rows;
        return function* values(row, rt) {
          for (const tableRow of table) {
            if (rt.pauseDue()) yield PAUSE;
            let out: Row | undefined = row;
            let copied = false;
            for (let i = 0; i < slots.length && out; i++) {
              const value = tableRow[i];
              if (value === undefined) continue;
              const slot = slots[i] as number;
              const current = out[slot];
              if (current === undefined) {
                if (!copied) {
                  out = out.slice();
                  copied = true;
                }
                out[slot] = value;
              } else if (current !== value) out = undefined;
            }
            if (out) yield out;
          }
        };
      }
    }
  }

  /** Whether evaluating `node` with a row that may bind `incoming` gives SPARQL's answers. */
  private safe(node: AlgebraNode, incoming: VarSet): boolean {
    if (incoming.size === 0) return true;
    switch (node.type) {
      case 'filter':
      case 'extend':
        return subsetOf(expressionVars(node.expression), certainVars(node.input), incoming);
      case 'leftjoin': {
        const certainLeft = certainVars(node.left);
        const names = allVars(node.right);
        if (node.expression) for (const name of expressionVars(node.expression)) names.add(name);
        return subsetOf(names, certainLeft, incoming);
      }
      case 'minus':
        return subsetOf(allVars(node.right), certainVars(node.left), incoming);
      default:
        return true;
    }
  }

  /** Evaluates `node` once per evaluation, from no bindings, then joins its solutions with each row. */
  private independent(node: AlgebraNode): Operator {
    const op = this.compile(node, new Set(), false);
    const id = this.nextMemo++;
    return function* independent(row, rt) {
      const rows = rt.memo.get(id) ?? (yield* memoiseSolutions(op, id, rt));
      for (const other of rows) {
        if (rt.pauseDue()) yield PAUSE;
        const merged = compatibleMerge(row, other);
        if (merged) yield merged;
      }
    };
  }

  /**
   * `FILTER(!BOUND(?v))` over `OPTIONAL { Q }` where Q always binds ?v and nothing before does:
   * the solutions are the left rows for which Q has no match, so one match is enough to decide.
   */
  private antiJoin(
    node: Extract<AlgebraNode, { type: 'filter' }>,
    incoming: VarSet,
    substitute: boolean,
  ): Operator | undefined {
    const input = node.input;
    if (input.type !== 'leftjoin' || input.expression !== undefined) return undefined;
    const parts = conjuncts(node.expression);
    const certainRight = certainVars(input.right);
    const possibleLeft = possibleVars(input.left);
    const index = parts.findIndex((part) => {
      if (part.type !== 'call' || part.op !== '!') return false;
      const inner = part.args[0] as Expression;
      if (inner.type !== 'call' || inner.op !== 'bound') return false;
      const target = inner.args[0] as Expression;
      return (
        target.type === 'var' &&
        certainRight.has(target.name) &&
        !possibleLeft.has(target.name) &&
        !incoming.has(target.name)
      );
    });
    if (index < 0) return undefined;
    const left = this.compile(input.left, incoming, substitute);
    const right = this.compile(input.right, new Set([...incoming, ...possibleLeft]), substitute);
    const probe = this.probe(input.right);
    const rest = parts.filter((_, i) => i !== index);
    const scope = new Set([...incoming, ...possibleVars(input)]);
    const condition = rest.length > 0 ? this.condition(andAll(rest), scope) : undefined;
    return filterRows(left, condition, rest.some(hasExists), { right, probe });
  }

  /**
   * For a single triple pattern whose variables occur once: whether it has a match under a row,
   * asked of the index directly (no cursor, no enumeration).
   */
  private probe(node: AlgebraNode): ((row: Row, rt: Runtime) => boolean) | undefined {
    if (node.type !== 'bgp' || node.patterns.length !== 1) return undefined;
    const pattern = node.patterns[0] as TriplePattern;
    const names = patternVars(pattern);
    if (new Set(names).size !== names.length) return undefined;
    const { s, p, o, sSlot, pSlot, oSlot } = this.compilePattern(pattern);
    return (row, rt) =>
      rt.source.any(
        sSlot < 0 ? s : row[sSlot],
        pSlot < 0 ? p : row[pSlot],
        oSlot < 0 ? o : row[oSlot],
      );
  }

  /** A triple pattern's constants, and the row slots of its variables (-1 at a constant). */
  private compilePattern(pattern: TriplePattern): CompiledPattern {
    const position = (term: PatternTerm) =>
      term.kind === 'const'
        ? { value: term.id, slot: -1 }
        : { value: undefined, slot: this.slot(term.name) };
    const s = position(pattern.subject);
    const p = position(pattern.predicate);
    const o = position(pattern.object);
    return { s: s.value, p: p.value, o: o.value, sSlot: s.slot, pSlot: p.slot, oSlot: o.slot };
  }

  /**
   * A basic graph pattern with the filter conjuncts that read only its variables (and constants).
   * `skippable`: this is the whole query's pattern (one triple pattern, distinct variables, no
   * filters), so the rows a root OFFSET drops are the first triples of its scan.
   */
  private bgp(
    patterns: TriplePattern[],
    incoming: VarSet,
    filters: Expression[] = [],
    skippable = false,
  ): Operator {
    const ordered = orderPatterns(patterns, incoming);
    // Each filter conjunct runs at the first level where the pattern variables it reads are bound.
    const scope = new Set([...incoming, ...ordered.flatMap(patternVars)]);
    const bgpVars = new Set(ordered.flatMap(patternVars));
    const levelConditions: CompiledCondition[][] = ordered.map(() => []);
    if (ordered.length === 0) levelConditions.push([]);
    // Levels with an EXISTS among their conditions test rows through withExistsAnswers.
    const levelExists: boolean[] = levelConditions.map(() => false);
    // Conjuncts on one variable that its level's pattern binds for the first time become tests on
    // single terms, which the cursor applies inside the index (a rejected term drops every triple
    // under it). Terms are then tested once per distinct term instead of once per triple.
    const keyed: { position: 's' | 'p' | 'o'; slot: number; condition: CompiledCondition }[][] =
      ordered.map(() => []);
    const boundAt = new Map<string, number>();
    ordered.forEach((pattern, level) => {
      for (const name of patternVars(pattern)) if (!boundAt.has(name)) boundAt.set(name, level);
    });
    for (const filter of filters) {
      let level = 0;
      const names = expressionVars(filter);
      for (const name of names)
        if (bgpVars.has(name)) level = Math.max(level, boundAt.get(name) ?? 0);
      const condition = this.condition(filter, scope);
      const [only] = names;
      const pattern = ordered[level];
      if (
        names.size === 1 &&
        only !== undefined &&
        pattern !== undefined &&
        !incoming.has(only) &&
        boundAt.get(only) === level &&
        !hasExists(filter)
      ) {
        const position = (['subject', 'predicate', 'object'] as const).find((key) => {
          const term = pattern[key];
          return term.kind === 'var' && term.name === only;
        });
        if (position !== undefined) {
          (keyed[level] as (typeof keyed)[number]).push({
            position: position === 'subject' ? 's' : position === 'predicate' ? 'p' : 'o',
            slot: this.slot(only),
            condition,
          });
          continue;
        }
      }
      (levelConditions[level] as CompiledCondition[]).push(condition);
      if (hasExists(filter)) levelExists[level] = true;
    }
    /** The key tests of each level, made once per evaluation of this pattern. */
    const makeTests = (rt: Runtime): (KeyTests | undefined)[] =>
      keyed.map((entries) => {
        if (entries.length === 0) return undefined;
        const scratch: Row = new Array(rt.width);
        const test = (position: 's' | 'p' | 'o') => {
          const mine = entries.filter((entry) => entry.position === position);
          if (mine.length === 0) return undefined;
          return (id: string): boolean => {
            rt.tick();
            for (const { slot, condition } of mine) {
              scratch[slot] = id;
              const pass = condition(scratch, rt) === true;
              scratch[slot] = undefined;
              if (!pass) return false;
            }
            return true;
          };
        };
        return { s: test('s'), p: test('p'), o: test('o'), interrupt: () => rt.wantsPause };
      });
    const anyKeyed = keyed.some((entries) => entries.length > 0);
    const compiled = ordered.map((pattern) => this.compilePattern(pattern));
    const n = compiled.length;
    const passes = (level: number, row: Row, rt: Runtime): boolean => {
      for (const condition of levelConditions[level] as CompiledCondition[])
        if (condition(row, rt) !== true) return false;
      return true;
    };
    /** `passes` through withExistsAnswers, for a level with an EXISTS among its conditions. */
    const passesWithExists = (level: number, row: Row, rt: Runtime) =>
      withExistsAnswers((r, runtime) => passes(level, r, runtime), row, rt);
    if (n === 0)
      return function* empty(row, rt) {
        if (levelExists[0] ? yield* passesWithExists(0, row, rt) : passes(0, row, rt)) yield row;
      };
    const open = (
      i: number,
      row: Row,
      rt: Runtime,
      tests: (KeyTests | undefined)[] | undefined,
    ): TripleCursor => {
      const pattern = compiled[i] as CompiledPattern;
      const s = pattern.sSlot < 0 ? pattern.s : row[pattern.sSlot];
      const p = pattern.pSlot < 0 ? pattern.p : row[pattern.pSlot];
      const o = pattern.oSlot < 0 ? pattern.o : row[pattern.oSlot];
      return rt.source.open(s, p, o, tests?.[i]);
    };
    const bind = (i: number, row: Row, ts: string, tp: string, to: string): Row | undefined => {
      const pattern = compiled[i] as CompiledPattern;
      let out: Row | undefined;
      if (pattern.sSlot >= 0 && row[pattern.sSlot] === undefined) {
        out = row.slice();
        out[pattern.sSlot] = ts;
      }
      if (pattern.pSlot >= 0 && row[pattern.pSlot] === undefined) {
        out ??= row.slice();
        const current = out[pattern.pSlot];
        if (current !== undefined && current !== tp) return undefined;
        out[pattern.pSlot] = tp;
      }
      if (pattern.oSlot >= 0 && row[pattern.oSlot] === undefined) {
        out ??= row.slice();
        const current = out[pattern.oSlot];
        if (current !== undefined && current !== to) return undefined;
        out[pattern.oSlot] = to;
      }
      return out ?? row;
    };
    // Binds into a reused row so that a triple rejected by a level's filter allocates nothing.
    const bindInto = (
      i: number,
      row: Row,
      ts: string,
      tp: string,
      to: string,
      target: Row,
    ): boolean => {
      const pattern = compiled[i] as CompiledPattern;
      for (let k = 0; k < row.length; k++) target[k] = row[k];
      if (pattern.sSlot >= 0 && row[pattern.sSlot] === undefined) target[pattern.sSlot] = ts;
      if (pattern.pSlot >= 0 && row[pattern.pSlot] === undefined) {
        const current = target[pattern.pSlot];
        if (current !== undefined && current !== tp) return false;
        target[pattern.pSlot] = tp;
      }
      if (pattern.oSlot >= 0 && row[pattern.oSlot] === undefined) {
        const current = target[pattern.oSlot];
        if (current !== undefined && current !== to) return false;
        target[pattern.oSlot] = to;
      }
      return true;
    };
    const filtered = levelConditions.some((conditions) => conditions.length > 0);
    if (n === 1 && (levelConditions[0] as CompiledCondition[]).length === 0)
      // One pattern: a plain scan (pagination over labels, subject lookups) without level bookkeeping.
      return function* scan(row, rt) {
        const cursor = open(0, row, rt, anyKeyed ? makeTests(rt) : undefined);
        // The root OFFSET: skip triples inside the index without reading their terms.
        if (skippable && rt.offset > 0 && cursor.skip) rt.offset -= cursor.skip(rt.offset);
        for (;;) {
          if (!cursor.next()) {
            if (!cursor.suspended) return;
            cursor.suspended = false;
            rt.wantsPause = false;
            yield PAUSE;
            continue;
          }
          if (rt.pauseDue()) yield PAUSE;
          const bound = bind(0, row, cursor.s, cursor.p, cursor.o);
          if (bound) yield bound;
        }
      };
    return function* bgp(row, rt) {
      const scratch: Row | undefined = filtered ? new Array(row.length) : undefined;
      const tests = anyKeyed ? makeTests(rt) : undefined;
      const cursors: TripleCursor[] = new Array(n);
      const rows: Row[] = new Array(n);
      rows[0] = row;
      cursors[0] = open(0, row, rt, tests);
      let level = 0;
      while (level >= 0) {
        const cursor = cursors[level] as TripleCursor;
        if (!cursor.next()) {
          if (cursor.suspended) {
            cursor.suspended = false;
            rt.wantsPause = false;
            yield PAUSE;
            continue;
          }
          level--;
          continue;
        }
        if (rt.pauseDue()) yield PAUSE;
        let bound: Row | undefined;
        if ((levelConditions[level] as CompiledCondition[]).length > 0) {
          const target = scratch as Row;
          if (!bindInto(level, rows[level] as Row, cursor.s, cursor.p, cursor.o, target)) continue;
          const pass = levelExists[level]
            ? yield* passesWithExists(level, target, rt)
            : passes(level, target, rt);
          if (!pass) continue;
          bound = target.slice();
        } else {
          bound = bind(level, rows[level] as Row, cursor.s, cursor.p, cursor.o);
          if (!bound) continue;
        }
        if (level === n - 1) {
          yield bound;
          continue;
        }
        level++;
        rows[level] = bound;
        cursors[level] = open(level, bound, rt, tests);
      }
    };
  }
}

/**
 * Greedy join order: next the pattern with the most bound positions (subject weighs most, a bound
 * predicate alone least), preferring patterns connected to what is already bound.
 */
function orderPatterns(patterns: TriplePattern[], incoming: VarSet): TriplePattern[] {
  const bound = new Set(incoming);
  const left = [...patterns];
  const out: TriplePattern[] = [];
  const isBound = (term: PatternTerm) => term.kind === 'const' || bound.has(term.name);
  while (left.length > 0) {
    let best = 0;
    let bestScore = Number.NEGATIVE_INFINITY;
    left.forEach((pattern, index) => {
      let score = 0;
      if (isBound(pattern.subject)) score += 8;
      if (isBound(pattern.object)) score += 6;
      if (isBound(pattern.predicate)) score += 2;
      // A pattern sharing nothing with what came before would be a cross product.
      if (out.length > 0 && !patternVars(pattern).some((name) => bound.has(name))) score -= 20;
      if (score > bestScore) {
        bestScore = score;
        best = index;
      }
    });
    const [next] = left.splice(best, 1) as [TriplePattern];
    out.push(next);
    for (const name of patternVars(next)) bound.add(name);
  }
  return out;
}

const plans = new WeakMap<CheckedQuery, Plan>();

/** The plan of a checked query, compiled once and cached. */
export function planOf(query: CheckedQuery): Plan {
  const cached = plans.get(query);
  if (cached) return cached;
  const planner = new Planner();
  const projection = query.variables.map((name) => planner.slot(name));
  const where = pushFilters(query.where);
  const root = planner.compileRoot(where);
  const scope = possibleVars(query.where);
  const order = query.order.map((condition) => ({
    key: planner.expression(condition.expression, scope),
    descending: condition.descending,
  }));
  const plan: Plan = { root, width: planner.width, projection, order };
  plans.set(query, plan);
  return plan;
}
