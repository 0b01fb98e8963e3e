import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryDetails } from './__fixtures__/arbitrary-details';
import { KIND_SCHEMAS, listCorpusFiles, loadCorpus } from './__fixtures__/corpus';
import { createDraft07Validator } from './__fixtures__/draft07-validator';
import { SystemDescriptorSchema } from './descriptor';
import { dataOrThrow } from './document-parse';
import { safeParseDocumentText } from './document-text';
import { toJsonPath } from './json-path';
import { toDraft07JsonSchema } from './json-schemas';
import { selectContractTargets } from './target-selection';
import {
  type Validation,
  validateDescriptor,
  validateDetails,
  validateSubmission,
  validateTemplate,
} from './validation';

const corpus = loadCorpus();
const ajv = createDraft07Validator();
const ajvValidators = Object.fromEntries(
  Object.entries(KIND_SCHEMAS).map(([kind, name]) => [
    kind,
    ajv.compile(toDraft07JsonSchema(name)),
  ]),
);
const zodValidators: Record<string, (value: unknown) => Validation<unknown>> = {
  details: validateDetails,
  submission: validateSubmission,
  template: validateTemplate,
  descriptor: validateDescriptor,
};

describe('the shared corpus', () => {
  it('holds at least 40 cases, valid and invalid ones of every kind', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
    for (const kind of Object.keys(KIND_SCHEMAS)) {
      expect(corpus.filter((c) => c.kind === kind && c.valid).length).toBeGreaterThan(0);
      expect(corpus.filter((c) => c.kind === kind && !c.valid).length).toBeGreaterThan(1);
    }
  });

  it('lists every file of the corpus folder exactly once', () => {
    expect(corpus.map((c) => c.file).sort()).toEqual(listCorpusFiles());
  });

  it('covers both A4 rules and every A5 scenario', () => {
    const rules = corpus.map((c) => c.rule).join('\n');
    for (const rule of [
      'A4 rule 1',
      'A4 rule 2',
      'A5 scenario 1',
      'A5 scenario 2',
      'A5 scenario 3',
    ]) {
      expect(rules).toContain(rule);
    }
  });

  it('gives every invalid case the errors it must produce', () => {
    for (const c of corpus.filter((c) => !c.valid)) {
      expect(c.errors?.length, c.file).toBeGreaterThan(0);
    }
  });
});

describe('beyond the corpus', () => {
  it('zod and ajv agree on random details documents', () => {
    const validate = ajvValidators.details!;
    fc.assert(
      fc.property(arbitraryDetails, (doc) => {
        expect(validate(doc)).toBe(validateDetails(doc).success);
      }),
      { numRuns: 500 },
    );
  });
});

describe.each(corpus)('$file ($rule)', (c) => {
  const value = dataOrThrow(safeParseDocumentText(c.text, c.file));

  it(`zod says ${c.valid ? 'valid' : 'invalid, with the expected errors'}`, () => {
    const result = zodValidators[c.kind]!(value);
    expect(result.success).toBe(c.valid);
    if (result.success) return;
    // The corpus records where and why; the code and the path array say the same for programs.
    expect(result.issues.map(({ path, message }) => ({ path, message }))).toEqual(c.errors);
    for (const issue of result.issues) {
      expect(toJsonPath(issue.segments)).toBe(issue.path);
      expect(issue.code).toMatch(/^[a-z_]+$/);
    }
  });

  it('ajv on the generated draft-07 JSON Schema agrees', () => {
    const validate = ajvValidators[c.kind]!;
    const ajvValid = validate(value);
    if (c.jsonSchemaLimitation !== undefined) {
      // Documented gap: the rule is a zod refinement that draft-07 cannot express.
      expect(c.valid).toBe(false);
      expect(ajvValid).toBe(true);
      return;
    }
    expect(ajvValid, JSON.stringify(validate.errors)).toBe(c.valid);
    if (c.valid) return;
    // …and points at the same places: every path zod reports is one ajv reports too.
    const ajvPaths = (validate.errors ?? []).map((error) => {
      const path = error.instancePath
        .split('/')
        .slice(1)
        .map((segment) => {
          const key = segment.replaceAll('~1', '/').replaceAll('~0', '~');
          return /^\d+$/.test(key) ? Number(key) : key;
        });
      const missing = (error.params as { missingProperty?: string }).missingProperty;
      const property = (error.params as { property?: string }).property;
      if (error.keyword === 'required' && missing !== undefined) path.push(missing);
      if (error.keyword === 'dependencies' && property !== undefined) path.push(property);
      return toJsonPath(path);
    });
    for (const expected of c.errors ?? []) expect(ajvPaths).toContain(expected.path);
  });

  if (c.targets !== undefined) {
    it('selects the expected data contracts (A5)', () => {
      const system = SystemDescriptorSchema.parse(value);
      const targets = selectContractTargets(system).map((t) => ({
        resourceId: t.resourceId,
        resultKeys: t.resultKeys,
      }));
      expect(targets).toEqual(c.targets);
    });
  }
});
