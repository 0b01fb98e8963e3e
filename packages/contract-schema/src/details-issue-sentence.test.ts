import { describe, expect, it } from 'vitest';
import { checkSubmission } from './compliance-status';
import { describeDetailsIssue } from './details-issue-sentence';
import { prefixIssues, validateDetails, validationIssue } from './validation';

/** The issues of details as the marketplace stores them: located in the submitted body. */
function issuesOf(details: unknown) {
  const checked = checkSubmission([
    {
      resource: { id: 'urn:dmb:cmp:a:b:0:port', descriptor: '' },
      result: { satisfiesPolicy: true, details },
    },
  ]);
  if (!checked.success) throw new Error('the envelope is valid in these tests');
  return checked.data.detailsIssues;
}

describe('describeDetailsIssue', () => {
  it('tells a record with both a verdict and sub-records, located by record numbers', () => {
    const [issue] = issuesOf({
      results: { root: [{ key: 'q', children: [{ key: 'a', compliant: true, children: [] }] }] },
    });
    expect(issue!.path).toBe('$[0].result.details.results.root[0].children[0]');
    expect(describeDetailsIssue(issue!)).toEqual({
      location: 'root › record 1 › record 1',
      sentence:
        'This record has both a verdict (“compliant”) and sub-records (“children”): a record is either a requirement or a section, never both.',
    });
  });

  it('tells a record with neither', () => {
    const [issue] = issuesOf({ results: { root: [{ key: 'a' }, { key: 'b' }] } });
    expect(describeDetailsIssue(issue!)).toMatchObject({
      location: 'root › record 1',
      sentence: expect.stringMatching(/^This record has neither a verdict/),
    });
  });

  it('names a missing or mistyped field and the record that holds it', () => {
    const issues = issuesOf({ results: { root: [{ name: 'a', compliant: 'yes' }] } });
    expect(issues.map(describeDetailsIssue)).toEqual([
      { location: 'root › record 1', sentence: '“key” is missing: it must be text.' },
      { location: 'root › record 1', sentence: '“compliant” must be true or false, not text.' },
    ]);
  });

  it('names an issue entry, a subcomponent target and the notes', () => {
    const issues = issuesOf({
      results: { 'urn:dmb:cmp:a:b:0:port:eu': [{ key: 'a', compliant: false, issues: ['ok', 7] }] },
      notes: { errorSummary: { message: 3 } },
    });
    expect(issues.map(describeDetailsIssue)).toEqual([
      {
        location: 'urn:dmb:cmp:a:b:0:port:eu › record 1',
        sentence: 'Issue 2 must be text, not a number.',
      },
      { location: 'notes › error summary', sentence: '“message” must be text, not a number.' },
    ]);
  });

  it('tells issues on a section and details without results', () => {
    const [onSection] = issuesOf({
      results: { root: [{ key: 's', children: [{ key: 'a', compliant: true }], issues: ['x'] }] },
    });
    expect(describeDetailsIssue(onSection!)).toEqual({
      location: 'root › record 1',
      sentence:
        'This record lists issues but has no verdict: only a requirement (a record with “compliant”) may list issues.',
    });
    const [none] = issuesOf({});
    expect(describeDetailsIssue(none!)).toEqual({
      location: 'results',
      sentence: 'Results is missing: it must be an object.',
    });
    const [list] = issuesOf({ results: { root: 'x' } });
    expect(describeDetailsIssue(list!)).toEqual({
      location: 'root',
      sentence: 'Root must be a list, not text.',
    });
  });

  it('reads issues located in the details themselves the same way', () => {
    const direct = validateDetails({ results: { root: [{ key: 'a' }] } });
    const inBody = prefixIssues([0, 'result', 'details'], direct.success ? [] : direct.issues);
    expect(describeDetailsIssue(inBody[0]!)).toEqual(
      describeDetailsIssue(direct.success ? inBody[0]! : direct.issues[0]!),
    );
  });

  it('never answers backticks or JSONPath, whatever the message', () => {
    const told = describeDetailsIssue(
      validationIssue(
        'custom',
        [0, 'result', 'details', 'results', 'root', 2],
        'the `key` of $[0] is odd',
      ),
    );
    expect(told.location).toBe('root › record 3');
    expect(told.sentence).toBe('The “key” of $[0] is odd.');
    expect(`${told.location} ${told.sentence}`).not.toContain('`');
    expect(told.location).not.toMatch(/\$|\[/);
  });
});

describe('describeDetailsIssue reads values, not messages', () => {
  it('tells an issue from its code and params whatever its message says', () => {
    const at = [0, 'result', 'details', 'results', 'root', 0];
    expect(
      describeDetailsIssue(
        validationIssue('compliant_xor_children', at, 'anything', { has: 'neither' }),
      ).sentence,
    ).toMatch(/^This record has neither a verdict/);
    expect(
      describeDetailsIssue(
        validationIssue('invalid_type', [...at, 'key'], 'expected boolean, received string', {
          expected: 'string',
          received: 'undefined',
        }),
      ).sentence,
    ).toBe('“key” is missing: it must be text.');
    expect(
      describeDetailsIssue(
        validationIssue('too_deep', [...at, 'children'], 'whatever', { maxDepth: 64 }),
      ).sentence,
    ).toBe('Sub-records is nested deeper than 64 levels.');
  });

  it('tells an issue without params in general words, with its message as written', () => {
    const at = [0, 'result', 'details', 'results', 'root', 0];
    // The message of rule 1 word for word, but no params: the sentence does not read it.
    expect(
      describeDetailsIssue(
        validationIssue(
          'compliant_xor_children',
          at,
          'a validation record has exactly one of `compliant` and `children`: it has both',
        ),
      ).sentence,
    ).toBe(
      'A record must have exactly one of a verdict (“compliant”) and sub-records (“children”).',
    );
  });

  it('gets the params from validation, rule 1 and the depth check alike', () => {
    const [both] = issuesOf({ results: { root: [{ key: 'a', compliant: true, children: [] }] } });
    expect(both?.params).toEqual({ has: 'both' });
    const [missing, wrong] = issuesOf({ results: { root: [{ compliant: 1 }] } });
    expect(missing?.params).toEqual({ expected: 'string', received: 'undefined' });
    expect(wrong?.params).toEqual({ expected: 'boolean', received: 'number' });
  });
});
