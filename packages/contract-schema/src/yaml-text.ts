import { parseAllDocuments } from 'yaml';
import { ContractSchemaError } from './contract-schema-error';

/**
 * Parses one YAML document safely (unique keys, at most 100 aliases) and names the `subject` in
 * error messages ("the descriptor is not valid YAML at line 2, column 5: …").
 *
 * @example
 * parseYamlText('a: 1\n', 'the document'); // { a: 1 }
 */
export function parseYamlText(text: string, subject: string): unknown {
  if (typeof text !== 'string') {
    throw new ContractSchemaError('INVALID_YAML', `${subject} must be a YAML string`);
  }
  const documents = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: true });
  // An empty stream parses to an empty list marker rather than an array: an empty document.
  if (!Array.isArray(documents)) return null;
  if (documents.length > 1) {
    throw new ContractSchemaError(
      'INVALID_YAML',
      `${subject} must hold one YAML document, found ${documents.length}`,
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
      `${subject} is not valid YAML${at}: ${error.message.split('\n')[0]}`,
      { cause: error, location: where && { line: where.line, column: where.col } },
    );
  }
  try {
    return document.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    throw new ContractSchemaError(
      'INVALID_YAML',
      `${subject} is not valid YAML: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}
