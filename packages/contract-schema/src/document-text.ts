import { type ParseError, parse as parseJsonc, printParseErrorCode } from 'jsonc-parser';
import { type DocumentParse, documentIssue } from './document-parse';
import { safeParseYamlText } from './yaml-text';

/**
 * Parses a document given as JSON or YAML text. `.json` files are read as strict JSON (clearer
 * errors); anything else, stdin included, as YAML 1.2, which also reads JSON. A text that does
 * not parse gives an issue (`invalid_json`, `invalid_yaml`, `too_deep`, `too_large`).
 *
 * @example
 * safeParseDocumentText('results:\n  root: []\n', 'details.yaml'); // { success: true, data: { results: { root: [] } } }
 */
export function safeParseDocumentText(text: string, name: string): DocumentParse {
  if (!name.toLowerCase().endsWith('.json')) return safeParseYamlText(text, 'the document');
  try {
    return { success: true, data: JSON.parse(text) };
  } catch (cause) {
    // JSON.parse says where only on some Node versions; a second, tolerant parse finds the spot.
    const errors: ParseError[] = [];
    parseJsonc(text, errors, { disallowComments: true, allowTrailingComma: false });
    const first = errors[0];
    const location = first === undefined ? undefined : lineAndColumn(text, first.offset);
    const at = location ? ` at line ${location.line}, column ${location.column}` : '';
    const reason = first
      ? describeJsonError(printParseErrorCode(first.error))
      : cause instanceof Error
        ? cause.message
        : String(cause);
    return documentIssue(
      'invalid_json',
      [],
      `the document is not valid JSON${at}: ${reason}`,
      location,
    );
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lastBreak = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - lastBreak };
}

/** "PropertyNameExpected" → "property name expected". */
function describeJsonError(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
