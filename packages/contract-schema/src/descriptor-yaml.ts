import { stringify } from 'yaml';
import type { DocumentLimits } from './document-limits';
import { parseYamlText } from './yaml-text';

/**
 * Parses the YAML `descriptor` string of a provisioning request (YAML 1.2; JSON is valid YAML).
 * Duplicate keys, several documents and syntax errors throw a {@link ContractSchemaError} with
 * code `invalid_yaml` that names line and column; a document nested deeper than `limits.maxDepth`
 * throws `too_deep`, one whose aliases expand it beyond `limits.maxExpandedBytes` `too_large`.
 *
 * @example
 * const descriptor = parseDescriptorYaml('componentIdToProvision: urn:dmb:cmp:a:b:0:g\n');
 */
export function parseDescriptorYaml(text: string, limits: DocumentLimits = {}): unknown {
  return parseYamlText(text, 'the descriptor', limits);
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
