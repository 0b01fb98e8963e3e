const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Formats a path of keys and indexes as a JSONPath expression rooted at `$`.
 *
 * @example
 * toJsonPath(['results', 'root', 0, 'children', 1]); // '$.results.root[0].children[1]'
 * toJsonPath(['results', 'urn:dmb:cmp:a:b:0:port']); // "$.results['urn:dmb:cmp:a:b:0:port']"
 */
export function toJsonPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '$';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else {
      const key = String(segment);
      out += IDENTIFIER.test(key)
        ? `.${key}`
        : `['${key.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}']`;
    }
  }
  return out;
}
