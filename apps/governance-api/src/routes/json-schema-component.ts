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

// The components the wire schemas of `wireSchema` refer to, registered by `registerWireComponents`.
const wireComponents = new Map<string, unknown>();

/**
 * A wire schema of `@dcg/governance-schema` for a route's OpenAPI entry. Those schemas are written
 * with `zod/mini` (that keeps `@dcg/marketplace-client`'s browser bundle small), which
 * @hono/zod-openapi cannot walk: the route gets a classic zod schema that checks with the wire
 * schema and is documented by its JSON Schema as component `id`; the schemas it refers to become
 * components through {@link registerWireComponents}.
 *
 * @example
 * content: { 'application/json': { schema: wireSchema('MarketplaceSearchResult', SearchResultSchema) } }
 */
export function wireSchema<T extends z.core.$ZodType>(id: string, schema: T) {
  const json = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<string, unknown>;
  const {
    $schema: _dialect,
    $defs = {},
    ...rest
  } = json as {
    $defs?: Record<string, unknown>;
  } & Record<string, unknown>;
  // A schema registered under an id comes out as a reference to itself in `$defs`.
  const self = typeof rest.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(rest.$ref)?.[1] : undefined;
  const root = self === undefined ? rest : ($defs[self] as Record<string, unknown>);
  for (const [defName, def] of Object.entries($defs)) {
    if (defName !== self) wireComponents.set(defName, rewriteRefs(def));
  }
  return z
    .custom<z.output<T>>((value) => z.safeParse(schema, value).success)
    .meta({ ...(rewriteRefs(root) as Record<string, unknown>), id });
}

/**
 * Registers the components the `wireSchema` entries refer to (call once, after mounting routes).
 *
 * @example
 * registerWireComponents(app);
 */
export function registerWireComponents(app: OpenAPIHono<GovernanceEnv>): void {
  for (const [name, def] of wireComponents) {
    app.openAPIRegistry.registerComponent('schemas', name, def as never);
  }
}
