import type { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import type { GovernanceEnv } from '../app-env';

// Keys whose value maps names to schemas: a `dependencies` there is a property, not the keyword.
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions']);

/**
 * zod's JSON Schema output into OpenAPI 3.1 (JSON Schema 2020-12): `$defs` references become
 * component references, and the draft-07 `dependencies` keyword (which the contract schemas state
 * for their draft-07 output) becomes `dependentRequired` / `dependentSchemas`.
 */
function rewriteRefs(value: unknown, inNameMap = false): unknown {
  if (Array.isArray(value)) return value.map((inner) => rewriteRefs(inner));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (inNameMap) {
      out[key] = rewriteRefs(inner);
    } else if (key === '$ref' && typeof inner === 'string') {
      out[key] = inner.replace(/^#\/\$defs\//, '#/components/schemas/');
    } else if (key === 'dependencies' && typeof inner === 'object' && inner !== null) {
      for (const [property, dependency] of Object.entries(inner)) {
        const keyword = Array.isArray(dependency) ? 'dependentRequired' : 'dependentSchemas';
        const target = (out[keyword] ?? {}) as Record<string, unknown>;
        target[property] = rewriteRefs(dependency);
        out[keyword] = target;
      }
    } else {
      out[key] = rewriteRefs(inner, NAME_MAPS.has(key));
    }
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
