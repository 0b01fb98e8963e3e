/**
 * The exact text of a committed `json-schema/<name>.json` file: two-space JSON and a newline.
 *
 * @example
 * formatJsonSchemaFile({ type: 'object' }); // '{\n  "type": "object"\n}\n'
 */
export function formatJsonSchemaFile(schema: Record<string, unknown>): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
