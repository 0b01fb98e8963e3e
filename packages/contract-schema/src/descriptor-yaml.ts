import { stringify } from 'yaml';
import type { DocumentLimits } from './document-limits';
import { type DocumentParse, dataOrThrow } from './document-parse';
import { safeParseYamlText } from './yaml-text';

/**
 * Parses the YAML `descriptor` string of a provisioning request (YAML 1.2; JSON is valid YAML)
 * and returns the value or the issue that refuses it, never throwing. Duplicate keys, several
 * documents and syntax errors give code `invalid_yaml` (the message names line and column, and
 * `location` holds them); a document nested deeper than `limits.maxDepth` gives `too_deep`
 * (its `segments` locate the first too-deep value when the parse got that far), one whose
 * aliases expand it beyond `limits.maxExpandedBytes` `too_large`.
 *
 * @example
 * const parsed = safeParseDescriptorYaml(request.descriptor);
 * if (!parsed.success) console.error(parsed.issues[0].code, parsed.issues[0].message);
 */
export function safeParseDescriptorYaml(text: string, limits: DocumentLimits = {}): DocumentParse {
  return safeParseYamlText(text, 'the descriptor', limits);
}

/**
 * Like {@link safeParseDescriptorYaml}, for a descriptor you trust (one you wrote): a refusal is
 * thrown as a {@link ContractSchemaError} with the issue's `code`, `message` and `location`.
 *
 * @example
 * const descriptor = parseDescriptorYaml('componentIdToProvision: urn:dmb:cmp:a:b:0:g\n');
 */
export function parseDescriptorYaml(text: string, limits: DocumentLimits = {}): unknown {
  return dataOrThrow(safeParseDescriptorYaml(text, limits));
}

/**
 * Serialises a descriptor to the YAML string a provisioning request carries. Repeated objects
 * are written out in full (no anchors), so every consumer reads them the same way.
 *
 * @example
 * const yaml = stringifyDescriptorYaml({ componentIdToProvision: 'urn:dmb:cmp:a:b:0:g' });
 */
export function stringifyDescriptorYaml(value: unknown): string {
  return stringify(value, { aliasDuplicateObjects: false, lineWidth: 0 });
}
