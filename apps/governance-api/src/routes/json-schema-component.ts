import type { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import type { GovernanceEnv } from '../app-env';

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof inner === 'string'
        ? inner.replace(/^#\/\$defs\//, '#/components/schemas/')
        : rewriteRefs(inner);
  }
  return out;
}

/**
 * Registers a contract-schema zod schema in the OpenAPI document through zod's own JSON Schema
 * output (the OpenAPI generator cannot render some of its constructs, such as `z.never()` in the
 * guardian policy spec). Nested `$defs` become components. Returns a reference to use in routes.
 *
 * @example
 * const ref = jsonSchemaComponent(app, 'InfrastructureTemplate', InfrastructureTemplateSchema);
 */
export function jsonSchemaComponent(
  app: OpenAPIHono<GovernanceEnv>,
  name: string,
  schema: z.ZodType,
): { $ref: string } {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  const { $schema: _schema, $defs, ...root } = json;
  for (const [defName, def] of Object.entries(($defs ?? {}) as Record<string, unknown>)) {
    app.openAPIRegistry.registerComponent('schemas', defName, rewriteRefs(def) as never);
  }
  app.openAPIRegistry.registerComponent('schemas', name, rewriteRefs(root) as never);
  return { $ref: `#/components/schemas/${name}` };
}
