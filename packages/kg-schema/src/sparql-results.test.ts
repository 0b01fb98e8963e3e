import { describe, expect, it } from 'vitest';
import { parseSparqlResults } from './sparql-results';

describe('parseSparqlResults', () => {
  it('accepts SELECT results and reads typed-literal as literal', () => {
    const checked = parseSparqlResults({
      head: { vars: ['o'], link: ['https://ex.org/meta'] },
      results: {
        distinct: false,
        bindings: [{ o: { type: 'typed-literal', value: '1', datatype: 'urn:t' } }],
      },
    });
    expect(checked).toEqual({
      success: true,
      data: {
        head: { vars: ['o'], link: ['https://ex.org/meta'] },
        results: { bindings: [{ o: { type: 'literal', value: '1', datatype: 'urn:t' } }] },
      },
    });
  });

  it('accepts quoted triples, checked all the way down', () => {
    const triple = {
      type: 'triple',
      value: {
        subject: { type: 'uri', value: 'https://ex.org/s' },
        predicate: { type: 'uri', value: 'https://ex.org/p' },
        object: { type: 'typed-literal', value: '1', datatype: 'urn:t' },
      },
    };
    const ok = parseSparqlResults({
      head: { vars: ['t'] },
      results: { bindings: [{ t: triple }] },
    });
    expect(ok.success && 'results' in ok.data && ok.data.results.bindings[0]?.t).toEqual({
      ...triple,
      value: { ...triple.value, object: { type: 'literal', value: '1', datatype: 'urn:t' } },
    });
    const broken = { ...triple, value: { ...triple.value, object: { type: 'uri' } } };
    const bad = parseSparqlResults({
      head: { vars: ['t'] },
      results: { bindings: [{ t: broken }] },
    });
    expect(bad.success).toBe(false);
  });

  it('accepts ASK results', () => {
    expect(parseSparqlResults({ head: {}, boolean: false })).toEqual({
      success: true,
      data: { head: {}, boolean: false },
    });
  });

  it('reports what is wrong, by JSON path', () => {
    const cases: [unknown, string][] = [
      [{ head: { vars: ['s'] } }, '$'],
      [{ head: { vars: ['s'] }, results: { bindings: [] }, boolean: true }, '$'],
      [{ head: {}, results: { bindings: [] } }, '$.head.vars'],
      [
        { head: { vars: ['s'] }, results: { bindings: [{ s: { type: 'uri' } }] } },
        '$.results.bindings[0].s',
      ],
      [
        { head: { vars: ['s'] }, results: { bindings: [{ s: { type: 'thing', value: 'x' } }] } },
        '$.results.bindings[0].s',
      ],
      [
        { head: { vars: ['s'] }, results: { bindings: [{ s: { type: 'literal', value: 3 } }] } },
        '$.results.bindings[0].s',
      ],
      ['<html>', '$'],
    ];
    for (const [value, path] of cases) {
      const checked = parseSparqlResults(value);
      expect(checked.success).toBe(false);
      if (!checked.success) {
        expect(checked.issues[0]?.path.startsWith(path)).toBe(true);
        expect(checked.issues[0]?.code).toMatch(/^[a-z_]+$/);
      }
    }
  });

  it('locates each issue as an array and as a JSON path, with a stable code', () => {
    const checked = parseSparqlResults({
      head: { vars: ['s'] },
      results: { bindings: [{ t: { type: 'uri', value: 'urn:x' } }] },
    });
    expect(checked).toEqual({
      success: false,
      issues: [
        {
          code: 'custom',
          segments: ['results', 'bindings', 0, 't'],
          path: '$.results.bindings[0].t',
          message: 'variable "t" is not in head.vars',
        },
      ],
    });
  });
});
