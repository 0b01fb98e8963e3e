import { describe, expect, it } from 'vitest';
import { safeParseDescriptorYaml } from './descriptor-yaml';
import { findTooDeep, flowNestingDepth } from './document-limits';
import type { DocumentIssue } from './document-parse';
import { validateDescriptor, validateSubmission } from './validation';

function nestedComponents(levels: number): Record<string, unknown> {
  let component: Record<string, unknown> = { id: `urn:dmb:cmp:a:b:0:c${levels}` };
  for (let i = levels - 1; i >= 0; i--) {
    component = { id: `urn:dmb:cmp:a:b:0:c${i}`, components: [component] };
  }
  return { id: 'urn:dmb:dp:a:b:0', kind: 'dataproduct', components: [component] };
}

function nestedDetails(levels: number): Record<string, unknown> {
  let record: Record<string, unknown> = { key: 'leaf', compliant: true };
  for (let i = 0; i < levels; i++) record = { key: `s${i}`, children: [record] };
  return { results: { root: [record] } };
}

function refusal(...args: Parameters<typeof safeParseDescriptorYaml>): DocumentIssue {
  const parsed = safeParseDescriptorYaml(...args);
  if (parsed.success) throw new Error('expected the descriptor to be refused');
  expect(parsed.issues).toHaveLength(1);
  return parsed.issues[0]!;
}

describe('findTooDeep', () => {
  it('names the path of the first container beyond the limit', () => {
    expect(findTooDeep({ a: [{ b: {} }] }, 3)).toEqual(['a', 0, 'b']);
    expect(findTooDeep({ a: [{ b: 1 }] }, 3)).toBeUndefined();
    expect(findTooDeep('text', 1)).toBeUndefined();
  });

  it('measures a million levels without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);
    expect(findTooDeep(deep, 128)).toHaveLength(128);
  });
});

describe('flowNestingDepth', () => {
  it('counts brackets outside quotes and comments', () => {
    expect(flowNestingDepth('a: [1, {b: [2]}]')).toBe(3);
    expect(flowNestingDepth("a: \"[[[[\" # [[[[\nb: '{{'\nc: don't [x]")).toBe(1);
  });
});

describe('validation of deeply nested documents', () => {
  it('gives a depth issue, not a stack overflow, for components nested 1,000 deep', () => {
    const result = validateDescriptor(nestedComponents(1000));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]?.message).toBe('is nested deeper than 128 levels');
    expect(result.issues[0]?.path.startsWith('$.components[0].components[0]')).toBe(true);
  });

  it('gives a depth issue under result.details for details nested 1,100 deep', () => {
    const body = [
      {
        resource: { id: 'urn:dmb:cmp:a:b:0:p', descriptor: '' },
        result: { satisfiesPolicy: true, details: nestedDetails(1100) },
      },
    ];
    const result = validateSubmission(body);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]?.path.startsWith('$[0].result.details.results.root[0]')).toBe(true);
  });

  it('still accepts a descriptor of ordinary depth', () => {
    expect(validateDescriptor(nestedComponents(20)).success).toBe(true);
  });

  it('takes the depth limit from its options', () => {
    expect(validateDescriptor(nestedComponents(10), { maxDepth: 16 }).success).toBe(false);
    expect(validateDescriptor(nestedComponents(10), { maxDepth: 64 }).success).toBe(true);
    expect(validateDescriptor(nestedComponents(120), { maxDepth: 256 }).success).toBe(true);
  });
});

describe('safeParseDescriptorYaml limits', () => {
  it('refuses 10,000 nested flow collections before the parser sees them', () => {
    const issue = refusal(`a: ${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    expect(issue.code).toBe('too_deep');
    expect(issue.segments).toEqual([]);
  });

  it('refuses deep block nesting with too_deep', () => {
    let text = '';
    for (let i = 0; i < 1000; i++) text += `${' '.repeat(i)}- \n`;
    expect(refusal(text).code).toBe('too_deep');
    let shallower = '';
    for (let i = 0; i < 200; i++) shallower += `${' '.repeat(i)}- \n`;
    expect(refusal(shallower).code).toBe('too_deep');
  });

  it('bounds the size of a document once its aliases are expanded', () => {
    const anchor = `big: &big "${'x'.repeat(100_000)}"\n`;
    const aliases = Array.from({ length: 99 }, (_, i) => `a${i}: *big\n`).join('');
    const text = anchor + aliases;
    // The text is 100 KB; expanded, 10 MB: over the default 8 MiB.
    expect(refusal(text).code).toBe('too_large');
    expect(refusal(text, { maxExpandedBytes: 1_000_000 }).code).toBe('too_large');
    const parsed = safeParseDescriptorYaml(text, { maxExpandedBytes: 20_000_000 });
    expect(parsed.success && (parsed.data as Record<string, string>).a98).toHaveLength(100_000);
  });

  it('counts aliases of nested anchors at their expanded size', () => {
    // Each level doubles: 2^20 leaves from a text of a few hundred bytes.
    let text = 'l0: &l0 ["xxxxxxxxxxxxxxxx"]\n';
    for (let i = 1; i <= 20; i++) text += `l${i}: &l${i} [*l${i - 1}, *l${i - 1}]\n`;
    expect(refusal(text).code).toBe('too_large');
  });

  it('locates a value nested too deep once parsed', () => {
    const issue = refusal('a:\n  b:\n    - c: 1\n', { maxDepth: 3 });
    expect(issue).toMatchObject({
      code: 'too_deep',
      segments: ['a', 'b', 0],
      path: '$.a.b[0]',
      message: 'the descriptor is nested deeper than 3 levels at $.a.b[0]',
    });
  });

  it('refuses an alias inside its own anchor', () => {
    expect(refusal('a: &x [1, *x]\n').code).toBe('invalid_yaml');
  });
});
