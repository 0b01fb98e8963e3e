import { ContractSchemaError } from './contract-schema-error';
import { parseYamlText } from './yaml-text';

/**
 * Parses a document given as JSON or YAML text. `.json` files are read as strict JSON (clearer
 * errors); anything else, stdin included, as YAML 1.2, which also reads JSON.
 *
 * @example
 * parseDocumentText('results:\n  root: []\n', 'details.yaml'); // { results: { root: [] } }
 */
export function parseDocumentText(text: string, name: string): unknown {
  if (!name.toLowerCase().endsWith('.json')) return parseYamlText(text, 'the document');
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new ContractSchemaError(
      'invalid_json',
      `the document is not valid JSON: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}
