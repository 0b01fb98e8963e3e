/** A key or an index of a path inside a document. */
export type PathSegment = string | number;

/**
 * Bounds on a parsed document, checked before any recursive work (validation, serialisation,
 * rendering) so hostile input is refused in bounded time and memory.
 *
 * @example
 * const limits: DocumentLimits = { maxDepth: 64, maxExpandedBytes: 2 * 1024 * 1024 };
 */
export interface DocumentLimits {
  /** Deepest nesting of objects and arrays; the top-level value is depth 1. Default 128. */
  maxDepth?: number;
  /**
   * Largest size of a YAML document once its aliases are expanded, counted as the length of its
   * JSON form (approximately). Default 8 MiB.
   */
  maxExpandedBytes?: number;
}

/**
 * Default deepest nesting (objects and arrays) of a document: 128 levels. Real descriptors and
 * result details stay far below; recursive validators overflow the stack far above.
 *
 * @example
 * DEFAULT_MAX_DEPTH; // 128
 */
export const DEFAULT_MAX_DEPTH = 128;

/**
 * Default largest expanded size of a YAML document: 8 MiB.
 *
 * @example
 * DEFAULT_MAX_EXPANDED_BYTES; // 8388608
 */
export const DEFAULT_MAX_EXPANDED_BYTES = 8 * 1024 * 1024;

/**
 * The path of the first object or array nested deeper than `maxDepth`, or `undefined` when the
 * value stays within it. Iterative, so a value nested a million levels deep is measured without
 * overflowing the stack; shared subtrees are visited once per reference.
 *
 * @example
 * findTooDeep({ a: { b: [1] } }, 2); // ['a', 'b']
 * findTooDeep({ a: 1 }, 2); // undefined
 */
export function findTooDeep(value: unknown, maxDepth: number): PathSegment[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  // A quick pass without paths (two flat stacks, no allocation per node); the path is traced only
  // for a value that is too deep.
  const nodes: object[] = [value];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) return traceTooDeep(value, maxDepth);
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i];
        if (typeof child === 'object' && child !== null) {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in node) {
        const child: unknown = (node as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null) {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return undefined;
}

/** The path to the first container deeper than `maxDepth` (depth first, in document order). */
function traceTooDeep(value: object, maxDepth: number): PathSegment[] | undefined {
  // Each frame: the container, its depth, and the key under which its parent holds it.
  const stack: Array<{ node: object; depth: number; parent: number; key: PathSegment }> = [];
  const frames: Array<{ parent: number; key: PathSegment }> = [];
  stack.push({ node: value, depth: 1, parent: -1, key: '' });
  while (stack.length > 0) {
    const { node, depth, parent, key } = stack.pop()!;
    const index = frames.length;
    frames.push({ parent, key });
    if (depth > maxDepth) {
      const path: PathSegment[] = [];
      for (let at = index; at > 0; at = frames[at]!.parent) path.push(frames[at]!.key);
      return path.reverse();
    }
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) {
        const child: unknown = node[i];
        if (typeof child === 'object' && child !== null) {
          stack.push({ node: child, depth: depth + 1, parent: index, key: i });
        }
      }
    } else {
      const entries = Object.entries(node);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i]!;
        if (typeof child === 'object' && child !== null) {
          stack.push({ node: child, depth: depth + 1, parent: index, key: k });
        }
      }
    }
  }
  return undefined;
}

/**
 * The deepest nesting of `[` and `{` in a YAML (or JSON) text, outside quoted scalars and
 * comments. The YAML parser descends recursively into flow collections, and a text of 10,000
 * nested brackets exhausts its memory; this count runs first, in one pass over the text.
 *
 * @example
 * flowNestingDepth('a: [1, {b: [2]}]'); // 3
 */
export function flowNestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (quote === '"') {
      if (ch === 0x5c) i++;
      else if (ch === 0x22) quote = undefined;
      continue;
    }
    if (quote === "'") {
      if (ch === 0x27) quote = undefined;
      continue;
    }
    switch (ch) {
      case 0x22: // "
        quote = '"';
        break;
      case 0x27: // ' starts a quoted scalar only where a scalar starts, not inside a plain word
        if (i === 0 || /[\s[\]{},:-]/.test(text[i - 1]!)) quote = "'";
        break;
      case 0x23: // # starts a comment after white space
        if (i === 0 || text[i - 1] === ' ' || text[i - 1] === '\t' || text[i - 1] === '\n') {
          const end = text.indexOf('\n', i);
          i = end === -1 ? text.length : end;
        }
        break;
      case 0x5b: // [
      case 0x7b: // {
        depth++;
        if (depth > deepest) deepest = depth;
        break;
      case 0x5d: // ]
      case 0x7d: // }
        if (depth > 0) depth--;
        break;
      default:
    }
  }
  return deepest;
}
