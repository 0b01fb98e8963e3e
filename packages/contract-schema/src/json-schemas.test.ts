import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createDraft07Validator } from './__fixtures__/draft07-validator';
import { ContractSchemaError } from './contract-schema-error';
import { formatJsonSchemaFile } from './json-schema-file';
import { isJsonSchemaName, JSON_SCHEMA_NAMES, toDraft07JsonSchema } from './json-schemas';

const folder = join(dirname(fileURLToPath(import.meta.url)), '..', 'json-schema');

describe('committed JSON Schemas', () => {
  it.each(JSON_SCHEMA_NAMES)('json-schema/%s.json matches the zod source', (name) => {
    const committed = readFileSync(join(folder, `${name}.json`), 'utf8');
    expect(
      committed,
      `json-schema/${name}.json drifted from the zod schema: run pnpm --filter @dcg/contract-schema generate`,
    ).toBe(formatJsonSchemaFile(toDraft07JsonSchema(name)));
  });

  it('has no file without a zod source', () => {
    const files = readdirSync(folder).filter((file) => file.endsWith('.json'));
    expect(files.sort()).toEqual(JSON_SCHEMA_NAMES.map((name) => `${name}.json`).sort());
  });

  it.each(JSON_SCHEMA_NAMES)('%s is a draft-07 schema that ajv compiles', (name) => {
    const schema = toDraft07JsonSchema(name);
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    const ajv = createDraft07Validator();
    expect(() => ajv.compile(schema)).not.toThrow();
  });
});

describe('A4 rules in the JSON Schema itself', () => {
  // Rules 1 and 2 must hold for any draft-07 validator, not only for zod's refinements.
  const record = (toDraft07JsonSchema('result-details').definitions as Record<string, unknown>)
    .ValidationRecord as Record<string, unknown>;

  it('states rule 1 with oneOf/required and rule 2 with dependencies', () => {
    expect(record.oneOf).toEqual([{ required: ['compliant'] }, { required: ['children'] }]);
    expect(record.dependencies).toEqual({ issues: ['compliant'] });
  });
});

describe('toDraft07JsonSchema', () => {
  it('knows every published name and rejects others with a ContractSchemaError', () => {
    expect(isJsonSchemaName('result-details')).toBe(true);
    expect(isJsonSchemaName('toString')).toBe(false);
    try {
      toDraft07JsonSchema('nope');
      expect.unreachable('unknown names must throw');
    } catch (error) {
      expect(ContractSchemaError.isInstance(error)).toBe(true);
      expect((error as ContractSchemaError).code).toBe('unknown_schema');
      expect((error as Error).message).toContain('result-details');
    }
  });
});
