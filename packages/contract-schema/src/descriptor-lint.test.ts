import { describe, expect, it } from 'vitest';
import { loadCorpus } from './__fixtures__/corpus';
import { lintDescriptor } from './descriptor-lint';
import { dataOrThrow } from './document-parse';
import { safeParseDocumentText } from './document-text';
import { validateDescriptor } from './validation';

const lint = (value: unknown) => {
  const parsed = validateDescriptor(value);
  if (!parsed.success) throw new Error(JSON.stringify(parsed.issues));
  return lintDescriptor(parsed.data);
};

describe('lintDescriptor', () => {
  it('finds unknown keys and non-URN ids at any depth, with a hint for a typo', () => {
    const findings = lint({
      id: 'urn:dmb:dp:finance:invoices:0',
      kind: 'dataproduct',
      owner: 'alice',
      components: [
        {
          id: 'urn:dmb:cmp:finance:invoices:0:port',
          __dataContractEnabled: true,
          components: [{ id: 'sub-1', consumabel: true }],
        },
      ],
    });
    expect(findings).toEqual([
      { code: 'UNKNOWN_KEY', severity: 'warning', path: '$.owner', message: 'unknown key "owner"' },
      {
        code: 'UNKNOWN_KEY',
        severity: 'warning',
        path: '$.components[0].components[0].consumabel',
        message: 'unknown key "consumabel" (did you mean "consumable"?)',
      },
      {
        code: 'NOT_A_URN',
        severity: 'warning',
        path: '$.components[0].components[0].id',
        message: 'id "sub-1" is not a URN (such as urn:dmb:dp:finance:invoices:0)',
      },
    ]);
  });

  it('says why a descriptor with components has no data contract', () => {
    const findings = lint({
      id: 'urn:dmb:dp:a:b:0',
      kind: 'dataproduct',
      components: [{ id: 'urn:dmb:cmp:a:b:0:c', __dataContractEnabled: false }],
    });
    expect(findings).toEqual([
      expect.objectContaining({
        code: 'NO_DATA_CONTRACT',
        path: '$.components',
        message: expect.stringContaining('none of the 1 components'),
      }),
    ]);
  });

  it('finds nothing in the valid descriptors of the corpus that have contracts', () => {
    for (const entry of loadCorpus()) {
      if (entry.kind !== 'descriptor' || !entry.valid || entry.file.includes('no-contracts'))
        continue;
      expect(lint(dataOrThrow(safeParseDocumentText(entry.text, entry.file))), entry.file).toEqual(
        [],
      );
    }
  });
});
