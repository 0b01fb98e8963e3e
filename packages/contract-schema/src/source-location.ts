import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';

/** A 1-based line and column in a text. */
export interface SourceLocation {
  line: number;
  column: number;
}

/**
 * Where the value at a JSONPath (`$.components[0].compnents`, as in validation issues) is written
 * in a JSON or YAML text: the key of the last step when it exists, else its value, else the
 * deepest step that exists (a missing member is reported on its parent). Undefined when the text
 * does not parse.
 *
 * @example
 * locatePath('id: x\nkind: dataproduct\n', '$.kind'); // { line: 2, column: 1 }
 */
export function locatePath(text: string, path: string): SourceLocation | undefined {
  const segments = parsePath(path);
  if (segments === undefined) return undefined;
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: false });
  if (document.errors.length > 0 || !document.contents) return undefined;
  let node: Node = document.contents as Node;
  let offset = node.range?.[0];
  for (const segment of segments) {
    let next: Node | undefined;
    let at: number | undefined;
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => isScalar(item.key) && String(item.key.value) === String(segment),
      );
      if (pair && isScalar(pair.key)) {
        at = pair.key.range?.[0];
        next = (pair.value ?? undefined) as Node | undefined;
      }
    } else if (isSeq(node) && typeof segment === 'number') {
      next = node.items[segment] as Node | undefined;
      at = next?.range?.[0];
    }
    if (at === undefined) break;
    offset = at;
    if (next === undefined) break;
    node = next;
  }
  if (offset === undefined) return undefined;
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}

/** `$.a[0]["b c"]` → `['a', 0, 'b c']`; undefined for anything else. */
function parsePath(path: string): (string | number)[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const segments: (string | number)[] = [];
  const step = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  step.lastIndex = 1;
  while (step.lastIndex < path.length) {
    const match = step.exec(path);
    if (!match) return undefined;
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else segments.push(JSON.parse(match[3] as string) as string);
  }
  return segments;
}
