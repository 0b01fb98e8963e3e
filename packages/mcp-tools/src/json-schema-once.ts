/** The Standard Schema properties the MCP SDK reads from a tool's input or output schema. */
interface StandardProps {
  validate: (value: unknown) => unknown;
  jsonSchema?: {
    input: (params?: { target?: string; libraryOptions?: unknown }) => Record<string, unknown>;
    output: (params?: { target?: string; libraryOptions?: unknown }) => Record<string, unknown>;
  };
  [key: string]: unknown;
}

/**
 * Makes a schema convert itself to JSON Schema once per target instead of on every use. The
 * 2026-07-28 serving builds one MCP server per request, and the SDK memoises each tool's JSON
 * Schema on the server: without this, every `tools/call` and `tools/list` converted the schemas
 * of the tools again (about a tenth of a call's CPU time). The schema's definition never changes
 * once made, so neither does its JSON Schema. `validate` may be wrapped at the same time (to see
 * refused input). Answers the same schema object (a copy for a fixed one). The dcg tools get this
when registered; use it for a deployment's own tools (`extendServer` of mcp-server) whose schemas
are made once, outside the per-request registration.
 *
 * @example
 * const input = jsonSchemaOnce(z.object({ query: z.string() }));
 */
export function jsonSchemaOnce<T>(
  schema: T,
  wrapValidate?: (validate: StandardProps['validate']) => StandardProps['validate'],
): T {
  if (schema === null || typeof schema !== 'object' || !('~standard' in schema)) return schema;
  const seen = wrapValidate ? undefined : done.get(schema);
  if (seen) return seen as T;
  const standard = (schema as { '~standard': StandardProps })['~standard'];
  const converter = standard.jsonSchema;
  const memo = new Map<string, Record<string, unknown>>();
  const once =
    (io: 'input' | 'output') =>
    (params?: { target?: string; libraryOptions?: unknown }): Record<string, unknown> => {
      const convert = converter![io];
      // Options of the library change the answer: those calls are not memoised.
      if (params?.libraryOptions !== undefined) return convert(params);
      const key = `${io} ${params?.target ?? ''}`;
      let json = memo.get(key);
      if (!json) {
        json = convert(params);
        memo.set(key, json);
      }
      return json;
    };
  const replaced: StandardProps = {
    ...standard,
    validate: wrapValidate ? wrapValidate(standard.validate) : standard.validate,
    ...(converter ? { jsonSchema: { input: once('input'), output: once('output') } } : {}),
  };
  // A zod schema takes an own `~standard`; the JSON Schema of `z.toJSONSchema` holds it fixed, so
  // a copy of that plain JSON carries the new one.
  const fixed = Object.getOwnPropertyDescriptor(schema, '~standard')?.configurable === false;
  const target = fixed ? { ...(schema as object) } : schema;
  Object.defineProperty(target, '~standard', {
    value: replaced,
    enumerable: false,
    configurable: true,
    writable: true,
  });
  if (!wrapValidate) {
    done.set(schema, target);
    done.set(target, target);
  }
  return target as T;
}

/** Schemas already made to convert once (a second call answers the same object). */
const done = new WeakMap<object, object>();
