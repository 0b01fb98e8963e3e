import { z } from 'zod';

/**
 * A tool's output schema as the MCP SDK reads it. Output schemas here are built on the wire schemas
 * of `@dcg/governance-schema`, which are `zod/mini`: a classic parent's `~standard.jsonSchema`
 * cannot walk them, `z.toJSONSchema` can (it knows every schema type), and its answer carries the
 * schema's own validation beside a Standard JSON Schema converter, which is what the SDK uses.
 *
 * @example
 * server.registerTool('get_system', { outputSchema: toolOutputSchema(SystemViewSchema) }, handler);
 */
export function toolOutputSchema<T extends z.core.$ZodType>(schema: T) {
  return z.toJSONSchema(schema);
}
