import { describe, expect, it } from 'vitest';
import { toJsonPath } from './json-path';

describe('toJsonPath', () => {
  it('uses dots for identifiers, brackets for indexes and other keys', () => {
    expect(toJsonPath([])).toBe('$');
    expect(toJsonPath(['results', 'root', 0, 'children', 1])).toBe('$.results.root[0].children[1]');
    expect(toJsonPath(['results', 'urn:dmb:cmp:a:b:0:port', 2])).toBe(
      "$.results['urn:dmb:cmp:a:b:0:port'][2]",
    );
    expect(toJsonPath(["it's"])).toBe("$['it\\'s']");
  });
});
