import { ContractSchemaError } from './contract-schema-error';
import { parseDescriptorYaml } from './descriptor-yaml';

/**
 * Parses a document given as JSON or YAML text. `.json` files are read as strict JSON (clearer
 * errors); anything else, stdin included, as YAML 1.2, which also reads JSON.
 *
 * @example
 * parseDocumentText('results:\n  root: []\n', 'details.yaml'); // { results: { root: [] } }
 */
export function parseDocumentText(text: string, name: string): unknown {
  if (name.toLowerCase().endsWith('.json')) {
    try {
      return JSON.parse(text);
    } catch (cause) {
      throw new ContractSchemaError(
        'INVALID_JSON',
        `not valid JSON: ${cause instanceof Error ? cause.message : String(cause)}`,
        { cause },
      );
    }
  }
  try {
    return parseDescriptorYaml(text);
  } catch (error) {
    if (ContractSchemaError.isInstance(error)) {
      throw new ContractSchemaError(
        'INVALID_YAML',
        error.message.replace('the descriptor is', 'not'),
        { cause: error },
      );
    }
    throw error;
  }
}
