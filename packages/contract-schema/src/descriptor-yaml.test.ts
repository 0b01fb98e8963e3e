import { describe, expect, it } from 'vitest';
import { ContractSchemaError } from './contract-schema-error';
import { ComponentProvisioningDescriptorSchema } from './descriptor';
import {
  parseDescriptorYaml,
  safeParseDescriptorYaml,
  stringifyDescriptorYaml,
} from './descriptor-yaml';
import { ProvisioningRequestSchema } from './provisioning-request';

const payload = {
  dataProduct: {
    id: 'urn:dmb:dp:finance:invoices:0',
    kind: 'dataproduct',
    'x-custom': { nested: [1, 'two', null, true] },
    components: [
      {
        id: 'urn:dmb:cmp:finance:invoices:0:guardian',
        kind: 'workload',
        info: { privateInfo: { __dataContractGuardian: { policyId: 'policy-42' } } },
        description: 'multi\nline: with # and "quotes"',
      },
    ],
  },
  componentIdToProvision: 'urn:dmb:cmp:finance:invoices:0:guardian',
};

function expectYamlError(text: string, pattern: RegExp): void {
  try {
    parseDescriptorYaml(text);
    expect.unreachable('must throw');
  } catch (error) {
    expect(ContractSchemaError.isInstance(error)).toBe(true);
    expect((error as ContractSchemaError).code).toBe('invalid_yaml');
    expect((error as Error).message).toMatch(pattern);
  }
}

describe('descriptor YAML', () => {
  it('round-trips a COMPONENT_DESCRIPTOR payload inside a provisioning request', () => {
    const request = ProvisioningRequestSchema.parse({
      descriptorKind: 'COMPONENT_DESCRIPTOR',
      descriptor: stringifyDescriptorYaml(payload),
      removeData: false,
    });
    const parsed = ComponentProvisioningDescriptorSchema.parse(
      parseDescriptorYaml(request.descriptor),
    );
    expect(parsed).toEqual(payload);
  });

  it('writes shared objects out in full rather than as anchors', () => {
    const shared = { a: 1 };
    const text = stringifyDescriptorYaml({ x: shared, y: shared });
    expect(text).not.toContain('&');
    expect(parseDescriptorYaml(text)).toEqual({ x: { a: 1 }, y: { a: 1 } });
  });

  it('reads JSON too, since JSON is YAML', () => {
    expect(parseDescriptorYaml('{"id": "urn:x", "n": [1, 2]}')).toEqual({ id: 'urn:x', n: [1, 2] });
  });

  it('reports syntax errors with line and column', () => {
    expectYamlError('id: urn:x\ncomponents: [\n', /not valid YAML at line \d+, column \d+/);
  });

  it('rejects duplicate keys and several documents', () => {
    expectYamlError('id: a\nid: b\n', /not valid YAML/);
    expectYamlError('id: a\n---\nid: b\n', /one YAML document, found 2/);
  });

  it('stops alias bombs', () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]',
    ].join('\n');
    expectYamlError(bomb, /not valid YAML/);
  });

  it('parses an empty text as null', () => {
    expect(parseDescriptorYaml('')).toBeNull();
  });
});

describe('safeParseDescriptorYaml', () => {
  it('returns the parsed value', () => {
    expect(safeParseDescriptorYaml('id: urn:x\n')).toEqual({
      success: true,
      data: { id: 'urn:x' },
    });
  });

  it('returns a syntax error as an issue with code, root path and location', () => {
    expect(safeParseDescriptorYaml('id: urn:x\nid: y\n')).toEqual({
      success: false,
      issues: [
        {
          code: 'invalid_yaml',
          segments: [],
          path: '$',
          message: expect.stringMatching(/^the descriptor is not valid YAML at line 2, column 1: /),
          location: { line: 2, column: 1 },
        },
      ],
    });
  });

  it('refuses a text that is not a string instead of throwing', () => {
    const parsed = safeParseDescriptorYaml(42 as unknown as string);
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(parsed.issues[0]?.code).toBe('invalid_yaml');
  });

  it('is what parseDescriptorYaml throws, as a ContractSchemaError', () => {
    const text = 'a: [';
    const parsed = safeParseDescriptorYaml(text);
    if (parsed.success) throw new Error('expected a refusal');
    const [issue] = parsed.issues;
    try {
      parseDescriptorYaml(text);
      expect.unreachable('must throw');
    } catch (error) {
      expect(ContractSchemaError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: issue?.code,
        message: issue?.message,
        location: issue?.location,
      });
    }
  });
});
