import type { AlgebraNode, Expression, TriplePattern } from './algebra';

/* Variable sets of algebra nodes, used to decide where substitution and filters are safe. */

export function patternVars(pattern: TriplePattern): string[] {
  const out: string[] = [];
  for (const term of [pattern.subject, pattern.predicate, pattern.object])
    if (term.kind === 'var') out.push(term.name);
  return out;
}

/** Variables that may be bound by a pattern's solutions. */
export function possibleVars(node: AlgebraNode): Set<string> {
  switch (node.type) {
    case 'bgp':
      return new Set(node.patterns.flatMap(patternVars));
    case 'join':
    case 'leftjoin':
    case 'union':
      return new Set([...possibleVars(node.left), ...possibleVars(node.right)]);
    case 'minus':
      return possibleVars(node.left);
    case 'filter':
      return possibleVars(node.input);
    case 'extend':
      return new Set([...possibleVars(node.input), node.variable]);
    case 'values':
      return new Set(node.variables);
  }
}

/** Variables bound in every solution of a pattern. */
export function certainVars(node: AlgebraNode): Set<string> {
  switch (node.type) {
    case 'bgp':
      return possibleVars(node);
    case 'join':
      return new Set([...certainVars(node.left), ...certainVars(node.right)]);
    case 'leftjoin':
    case 'minus':
      return certainVars(node.left);
    case 'union': {
      const right = certainVars(node.right);
      return new Set([...certainVars(node.left)].filter((name) => right.has(name)));
    }
    case 'filter':
    case 'extend':
      return certainVars(node.input);
    case 'values':
      return new Set(
        node.variables.filter((_, i) => node.rows.every((row) => row[i] !== undefined)),
      );
  }
}

export function expressionVars(expression: Expression, out = new Set<string>()): Set<string> {
  switch (expression.type) {
    case 'var':
      out.add(expression.name);
      break;
    case 'call':
      for (const arg of expression.args) expressionVars(arg, out);
      break;
    case 'in':
      expressionVars(expression.arg, out);
      for (const item of expression.list) expressionVars(item, out);
      break;
    case 'exists':
      for (const name of allVars(expression.pattern)) out.add(name);
      break;
    case 'const':
      break;
  }
  return out;
}

/** Every variable mentioned anywhere in a pattern, expressions included. */
export function allVars(node: AlgebraNode): Set<string> {
  const out = possibleVars(node);
  const visit = (n: AlgebraNode): void => {
    switch (n.type) {
      case 'join':
      case 'union':
        visit(n.left);
        visit(n.right);
        break;
      case 'leftjoin':
        visit(n.left);
        visit(n.right);
        if (n.expression) for (const name of expressionVars(n.expression)) out.add(name);
        break;
      case 'minus':
        visit(n.left);
        for (const name of allVars(n.right)) out.add(name);
        break;
      case 'filter':
      case 'extend':
        visit(n.input);
        for (const name of expressionVars(n.expression)) out.add(name);
        break;
      default:
    }
  };
  visit(node);
  return out;
}
