import { readFileSync } from 'node:fs';
import { toJsonPath } from '@dcg/contract-schema';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';

const CONFIG_ERROR = Symbol.for('dcg.http-kit.ConfigError');

/** Start-up configuration that cannot be used; the message names every bad key. */
export class ConfigError extends Error {
  readonly code = 'INVALID_CONFIG';
  readonly [CONFIG_ERROR] = true;
  readonly problems: Array<{ key: string; message: string }>;

  constructor(
    message: string,
    problems: Array<{ key: string; message: string }> = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ConfigError';
    this.problems = problems;
  }

  static isInstance(value: unknown): value is ConfigError {
    return typeof value === 'object' && value !== null && CONFIG_ERROR in value;
  }
}

function keyOf(path: ReadonlyArray<PropertyKey>): string {
  return toJsonPath(path).replace(/^\$\.?/, '') || '(root)';
}

type Problem = { key: string; message: string };

/** One problem per bad key, named by its full path; a union is explained, not "Invalid input". */
function problemsOf(issues: readonly z.core.$ZodIssue[], base: PropertyKey[]): Problem[] {
  const problems: Problem[] = [];
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        problems.push({ key: keyOf([...path, key]), message: 'unknown key' });
    } else if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      problems.push(...unionProblems(issue.errors, path));
    } else {
      problems.push({ key: keyOf(path), message: issue.message });
    }
  }
  return problems;
}

/**
 * A value that none of a union's options took (`origin: a string or a list`): when its type
 * matched an option, that option's problems say why (`cors.origin[0]: must be an origin…`);
 * when it matched none, the types it may have (`expected string or array, received number`).
 */
function unionProblems(branches: z.core.$ZodIssue[][], path: PropertyKey[]): Problem[] {
  const wrongType = (branch: z.core.$ZodIssue[]) =>
    branch.every((issue) => issue.code === 'invalid_type' && issue.path.length === 0);
  const matched = branches.find((branch) => !wrongType(branch));
  if (matched) return problemsOf(matched, path);
  const expected = [
    ...new Set(branches.flat().map((issue) => ('expected' in issue ? String(issue.expected) : ''))),
  ].filter(Boolean);
  const received = /received (\w+)/.exec(branches[0]?.[0]?.message ?? '')?.[1];
  return [
    {
      key: keyOf(path),
      message: `expected ${expected.join(' or ')}${received ? `, received ${received}` : ''}`,
    },
  ];
}

/**
 * Validates a configuration object; an unknown or invalid key throws a `ConfigError` naming it.
 * Use strict object schemas so that unknown keys are reported.
 *
 * @example
 * const config = parseConfig(ConfigSchema, { port: 8080 }, 'config.yaml');
 */
export function parseConfig<S extends z.ZodType>(
  schema: S,
  raw: unknown,
  origin = 'configuration',
): z.output<S> {
  const result = schema.safeParse(raw ?? {});
  if (result.success) return result.data;
  const problems = problemsOf(result.error.issues, []);
  const lines = problems.map((p) => `  - ${p.key}: ${p.message}`).join('\n');
  throw new ConfigError(`Invalid ${origin}:\n${lines}`, problems);
}

/**
 * Reads the configuration file (YAML or JSON; default path from `DCG_CONFIG`) and validates it.
 * No file configured means an empty object, so the schema's defaults apply.
 *
 * @example
 * const config = loadConfig(ConfigSchema);
 */
export function loadConfig<S extends z.ZodType>(
  schema: S,
  options: { path?: string | undefined } = {},
): z.output<S> {
  const path = options.path ?? process.env.DCG_CONFIG;
  if (!path) return parseConfig(schema, {}, 'configuration (defaults)');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new ConfigError(
      `Cannot read the configuration file ${path}: ${(cause as Error).message}`,
      [],
      { cause },
    );
  }
  let raw: unknown;
  try {
    raw = path.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (cause) {
    throw new ConfigError(
      `The configuration file ${path} is not valid YAML or JSON: ${(cause as Error).message}`,
      [],
      {
        cause,
      },
    );
  }
  return parseConfig(schema, raw, `configuration file ${path}`);
}
