import { type Document, isAlias, isCollection, isPair, isScalar, parseAllDocuments } from 'yaml';
import {
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_EXPANDED_BYTES,
  type DocumentLimits,
  findTooDeep,
  flowNestingDepth,
} from './document-limits';
import { type DocumentParse, documentIssue } from './document-parse';
import { toJsonPath } from './json-path';

function scalarSize(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  return String(value).length;
}

/**
 * Checks the size of the document once every alias is expanded: the approximate length of its
 * JSON form. Counted on the syntax tree, bottom-up and without recursion, each anchored node
 * once: an alias adds the size of its anchor. Stops as soon as the count passes `max`. An alias
 * that points into its own anchor (a cycle) or forward is refused. Undefined when within `max`.
 */
function expandedSizeIssue(
  document: Document,
  max: number,
  subject: string,
): DocumentParse | undefined {
  const sizes = new Map<unknown, number>();
  const sizeOf = (node: unknown): number => (node == null ? 4 : (sizes.get(node) ?? 0));
  const stack: Array<{ node: unknown; ready: boolean }> = [
    { node: document.contents, ready: false },
  ];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { node } = frame;
    if (node == null || sizes.has(node)) continue;
    let size: number;
    if (isScalar(node)) size = scalarSize(node.value);
    else if (isAlias(node)) {
      const target = node.resolve(document);
      if (target === undefined || !sizes.has(target)) {
        return documentIssue(
          'invalid_yaml',
          [],
          `${subject} is not valid YAML: the alias *${node.source} refers to its own anchor or to none`,
        );
      }
      size = sizes.get(target)!;
    } else if (isPair(node)) {
      if (!frame.ready) {
        stack.push({ node, ready: true }, { node: node.value, ready: false });
        stack.push({ node: node.key, ready: false });
        continue;
      }
      size = sizeOf(node.key) + sizeOf(node.value) + 1;
    } else if (isCollection(node)) {
      if (!frame.ready) {
        stack.push({ node, ready: true });
        for (let i = node.items.length - 1; i >= 0; i--) {
          stack.push({ node: node.items[i], ready: false });
        }
        continue;
      }
      size = 2;
      for (const item of node.items) size += sizeOf(item) + 1;
    } else size = 4;
    if (size > max) {
      return documentIssue(
        'too_large',
        [],
        `${subject} expands to more than ${max} bytes once its YAML aliases are resolved`,
      );
    }
    sizes.set(node, size);
  }
  return undefined;
}

/**
 * Parses one YAML document safely and names the `subject` in issue messages ("the descriptor is
 * not valid YAML at line 2, column 5: …"). Duplicate keys, several documents, more than 100
 * aliases and recursive aliases are refused (`invalid_yaml`); so is a document nested deeper
 * than `limits.maxDepth` (`too_deep`, checked on the text before parsing and on the value after)
 * or one that expands beyond `limits.maxExpandedBytes` through its aliases (`too_large`).
 * Refusals are returned as issues; nothing is thrown for any input.
 *
 * @example
 * safeParseYamlText('a: 1\n', 'the document'); // { success: true, data: { a: 1 } }
 */
export function safeParseYamlText(
  text: string,
  subject: string,
  limits: DocumentLimits = {},
): DocumentParse {
  if (typeof text !== 'string') {
    return documentIssue('invalid_yaml', [], `${subject} must be a YAML string`);
  }
  const maxDepth = limits.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxExpandedBytes = limits.maxExpandedBytes ?? DEFAULT_MAX_EXPANDED_BYTES;
  // The parser recurses into flow collections (and runs out of memory on deep ones): count first.
  if (flowNestingDepth(text) > maxDepth) {
    return documentIssue(
      'too_deep',
      [],
      `${subject} nests [ ] and { } deeper than ${maxDepth} levels`,
    );
  }
  const documents = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: true });
  // An empty stream parses to an empty list marker rather than an array: an empty document.
  if (!Array.isArray(documents)) return { success: true, data: null };
  if (documents.length > 1) {
    return documentIssue(
      'invalid_yaml',
      [],
      `${subject} must hold one YAML document, found ${documents.length}`,
    );
  }
  const document = documents[0];
  if (document === undefined) return { success: true, data: null };
  const error = document.errors[0];
  if (error !== undefined) {
    const where = error.linePos?.[0];
    const at = where === undefined ? '' : ` at line ${where.line}, column ${where.col}`;
    const message = error.message.split('\n')[0] ?? '';
    const location = where && { line: where.line, column: where.col };
    // The parser reports a stack overflow on deep block nesting as a syntax error.
    if (message.startsWith('Maximum call stack size exceeded')) {
      return documentIssue(
        'too_deep',
        [],
        `${subject} is nested deeper than ${maxDepth} levels${at}`,
        location,
      );
    }
    return documentIssue(
      'invalid_yaml',
      [],
      `${subject} is not valid YAML${at}: ${message}`,
      location,
    );
  }
  const tooLarge = expandedSizeIssue(document, maxExpandedBytes, subject);
  if (tooLarge !== undefined) return tooLarge;
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    // The yaml library reports alias abuse by throwing: turned into an issue here.
    return documentIssue(
      'invalid_yaml',
      [],
      `${subject} is not valid YAML: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
  const tooDeep = findTooDeep(value, maxDepth);
  if (tooDeep !== undefined) {
    return documentIssue(
      'too_deep',
      tooDeep,
      `${subject} is nested deeper than ${maxDepth} levels at ${toJsonPath(tooDeep)}`,
    );
  }
  return { success: true, data: value };
}
