import type { AlgebraNode, Expression } from './algebra';
import { certainVars, expressionVars } from './plan-vars';

/** The operands of a chain of `&&`. */
export function conjuncts(expression: Expression, out: Expression[] = []): Expression[] {
  if (expression.type === 'call' && expression.op === '&&') {
    conjuncts(expression.args[0] as Expression, out);
    conjuncts(expression.args[1] as Expression, out);
  } else out.push(expression);
  return out;
}

function and(expressions: Expression[]): Expression {
  let out = expressions[0] as Expression;
  for (const next of expressions.slice(1)) out = { type: 'call', op: '&&', args: [out, next] };
  return out;
}

/** Whether an expression contains EXISTS / NOT EXISTS (its value may depend on the whole row). */
export function hasExists(expression: Expression): boolean {
  switch (expression.type) {
    case 'exists':
      return true;
    case 'call':
      return expression.args.some(hasExists);
    case 'in':
      return hasExists(expression.arg) || expression.list.some(hasExists);
    default:
      return false;
  }
}

function within(names: Set<string>, allowed: Set<string>): boolean {
  for (const name of names) if (!allowed.has(name)) return false;
  return true;
}

function addFilter(node: AlgebraNode, condition: Expression): AlgebraNode {
  return tryPush(node, condition) ?? { type: 'filter', input: node, expression: condition };
}

/**
 * Moves a conjunct below a join or into the left side of an OPTIONAL when every variable it reads
 * is certainly bound there: those variables keep their values in every extension, so the FILTER
 * keeps exactly the same solutions, only sooner.
 */
function tryPush(node: AlgebraNode, condition: Expression): AlgebraNode | undefined {
  const names = expressionVars(condition);
  switch (node.type) {
    case 'leftjoin':
      if (within(names, certainVars(node.left)))
        return { ...node, left: addFilter(node.left, condition) };
      return undefined;
    case 'join':
      if (within(names, certainVars(node.left)))
        return { ...node, left: addFilter(node.left, condition) };
      if (within(names, certainVars(node.right)))
        return { ...node, right: addFilter(node.right, condition) };
      return undefined;
    case 'filter': {
      const inner = tryPush(node.input, condition);
      return inner ? { ...node, input: inner } : undefined;
    }
    case 'extend':
      if (!names.has(node.variable) && within(names, certainVars(node.input)))
        return { ...node, input: addFilter(node.input, condition) };
      return undefined;
    default:
      return undefined;
  }
}

/**
 * Rewrites the algebra so that each conjunct of a FILTER runs as early as it can (filter pushdown).
 * Conjuncts with EXISTS stay where they are.
 *
 * @example
 * ```ts
 * const where = pushFilters(query.where);
 * ```
 */
export function pushFilters(node: AlgebraNode): AlgebraNode {
  switch (node.type) {
    case 'filter': {
      let input = pushFilters(node.input);
      const remaining: Expression[] = [];
      for (const condition of conjuncts(node.expression)) {
        const pushed = hasExists(condition) ? undefined : tryPush(input, condition);
        if (pushed) input = pushed;
        else remaining.push(condition);
      }
      return remaining.length === 0 ? input : { type: 'filter', input, expression: and(remaining) };
    }
    case 'join':
    case 'union':
    case 'minus':
      return { ...node, left: pushFilters(node.left), right: pushFilters(node.right) };
    case 'leftjoin':
      return { ...node, left: pushFilters(node.left), right: pushFilters(node.right) };
    case 'extend':
      return { ...node, input: pushFilters(node.input) };
    default:
      return node;
  }
}
