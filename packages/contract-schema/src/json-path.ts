/**
 * Formats a path of keys and indexes as a JSONPath expression rooted at `$`: names that are
 * identifiers after a dot, others in single quotes with `\` and `'` escaped (RFC 9535).
 *
 * @example
 * toJsonPath(['results', 'root', 0, 'children', 1]); // '$.results.root[0].children[1]'
 * toJsonPath(['results', 'urn:dmb:cmp:a:b:0:port']); // "$.results['urn:dmb:cmp:a:b:0:port']"
 */
export function toJsonPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '$';
  for (const segment of path) {
    const key = String(segment);
    out +=
      typeof segment === 'number'
        ? `[${key}]`
        : /^[A-Za-z_$][\w$]*$/.test(key)
          ? `.${key}`
          : `['${key.replace(/[\\']/g, '\\$&')}']`;
  }
  return out;
}
