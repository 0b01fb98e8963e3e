import { parseAllDocuments, stringify } from 'yaml';
import { ContractSchemaError } from './contract-schema-error';

/**
 * Parses the YAML `descriptor` string of a provisioning request (YAML 1.2; JSON is valid YAML).
 * Duplicate keys, several documents and syntax errors throw a {@link ContractSchemaError} with
 * code `INVALID_YAML` that names line and column.
 *
 * @example
 * const descriptor = parseDescriptorYaml('componentIdToProvision: urn:dmb:cmp:a:b:0:g\n');
 */
export function parseDescriptorYaml(text: string): unknown {
  if (typeof text !== 'string') {
    throw new ContractSchemaError('INVALID_YAML', 'the descriptor must be a YAML string');
  }
  const documents = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: true });
  if (!Array.isArray(documents)) {
    // An empty stream parses to an empty list marker: treat as an empty document.
    return null;
  }
  if (documents.length > 1) {
    throw new ContractSchemaError(
      'INVALID_YAML',
      `the descriptor must hold one YAML document, found ${documents.length}`,
    );
  }
  const document = documents[0];
  if (document === undefined) return null;
  const error = document.errors[0];
  if (error !== undefined) {
    const where = error.linePos?.[0];
    const at = where === undefined ? '' : ` at line ${where.line}, column ${where.col}`;
    throw new ContractSchemaError(
      'INVALID_YAML',
      `the descriptor is not valid YAML${at}: ${error.message.split('\n')[0]}`,
      { cause: error },
    );
  }
  try {
    return document.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    throw new ContractSchemaError(
      'INVALID_YAML',
      `the descriptor is not valid YAML: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
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
