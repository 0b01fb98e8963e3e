import { z } from 'zod';
import { parseDuration } from './duration';

/** One problem of a data contract, located by a path inside the component's `dataContract`. */
export interface ContractIssue {
  code: 'invalid_contract' | 'unsupported_value';
  path: (string | number)[];
  message: string;
}

/** Outcome of {@link parseDataContract}. */
export type ContractParse =
  | { success: true; data: DataContract; warnings: ContractIssue[] }
  | { success: false; issues: ContractIssue[] };

/** A comparison of an ODCS quality rule (`mustBe`, `mustBeBetween`, …). */
export type Threshold =
  | { operator: 'mustBe' | 'mustNotBe'; value: number }
  | {
      operator:
        | 'mustBeGreaterThan'
        | 'mustBeGreaterOrEqualTo'
        | 'mustBeLessThan'
        | 'mustBeLessOrEqualTo';
      value: number;
    }
  | { operator: 'mustBeBetween' | 'mustNotBeBetween'; value: [number, number] };

/** An ODCS quality rule, normalised. `column` is set for rules declared on a property. */
export type QualityRule =
  | {
      kind: 'library';
      metric: 'nullValues' | 'missingValues' | 'invalidValues' | 'duplicateValues' | 'rowCount';
      column?: string | undefined;
      /** Columns of a table-level `duplicateValues` (its `arguments.properties`). */
      columns?: string[] | undefined;
      threshold: Threshold;
      unit: 'rows' | 'percent';
      /** `missingValues`: the values that count as missing (besides null). */
      missingValues?: unknown[] | undefined;
      /** `invalidValues`: the allowed values, or a pattern the values must match. */
      validValues?: unknown[] | undefined;
      pattern?: string | undefined;
      name?: string | undefined;
      description?: string | undefined;
      path: (string | number)[];
    }
  | {
      kind: 'sql';
      query: string;
      threshold: Threshold;
      column?: string | undefined;
      name?: string | undefined;
      description?: string | undefined;
      path: (string | number)[];
    };

/** A column as the contract declares it. */
export interface ContractColumn {
  name: string;
  /** Declared type, lower case as written (`decimal`, `string`, `timestamp`, `varchar(20)`). */
  type: string | undefined;
  /** ODCS `physicalType`, when declared: compared instead of `type`. */
  physicalType: string | undefined;
  required: boolean;
  unique: boolean;
  primaryKey: boolean;
}

/** One table (Witboost: the contract itself; ODCS: one `schema[]` object). */
export interface ContractModel {
  name: string;
  /** Database schema of the table, when the contract says it. */
  schema: string | undefined;
  table: string;
  columns: ContractColumn[];
  quality: QualityRule[];
  /** Maximum age of the newest row, and the timestamp column that says it. */
  freshness: { column: string; maxAgeMs: number; declared: string } | undefined;
}

/** The contract model read from a component's `dataContract`, whatever its dialect. */
export interface DataContract {
  dialect: 'witboost' | 'odcs';
  models: ContractModel[];
  /** ODCS `servers[]` of type postgres (host, port, database, schema), when declared. */
  server: { host?: string; port?: number; database?: string; schema?: string } | undefined;
}

const ConstraintSchema = z.union([z.string(), z.array(z.string())]).optional();

const WitboostColumnSchema = z.looseObject({
  name: z.string().min(1),
  dataType: z.string().optional(),
  constraint: ConstraintSchema,
  constraints: ConstraintSchema,
});

const WitboostContractSchema = z.looseObject({
  schema: z.array(WitboostColumnSchema).optional(),
  SLA: z
    .looseObject({
      intervalOfChange: z.unknown().optional(),
      timeliness: z.unknown().optional(),
      upTime: z.unknown().optional(),
    })
    .optional(),
  endpoint: z.unknown().optional(),
  freshnessColumn: z.string().optional(),
});

const NumberOrPair = z.union([z.number(), z.tuple([z.number(), z.number()])]);

const OdcsQualitySchema = z.looseObject({
  type: z.string().optional(),
  metric: z.string().optional(),
  rule: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  query: z.string().optional(),
  unit: z.string().optional(),
  arguments: z.record(z.string(), z.unknown()).optional(),
  mustBe: z.number().optional(),
  mustNotBe: z.number().optional(),
  mustBeGreaterThan: z.number().optional(),
  mustBeGreaterOrEqualTo: z.number().optional(),
  mustBeLessThan: z.number().optional(),
  mustBeLessOrEqualTo: z.number().optional(),
  mustBeBetween: NumberOrPair.optional(),
  mustNotBeBetween: NumberOrPair.optional(),
});

const OdcsPropertySchema = z.looseObject({
  name: z.string().min(1),
  logicalType: z.string().optional(),
  physicalType: z.string().optional(),
  required: z.boolean().optional(),
  unique: z.boolean().optional(),
  primaryKey: z.boolean().optional(),
  quality: z.array(OdcsQualitySchema).optional(),
});

const OdcsSchemaObjectSchema = z.looseObject({
  name: z.string().min(1),
  physicalName: z.string().optional(),
  properties: z.array(OdcsPropertySchema).optional(),
  quality: z.array(OdcsQualitySchema).optional(),
});

const OdcsContractSchema = z.looseObject({
  apiVersion: z.string(),
  schema: z.array(OdcsSchemaObjectSchema).optional(),
  slaProperties: z
    .array(
      z.looseObject({
        property: z.string(),
        value: z.unknown().optional(),
        unit: z.string().optional(),
        element: z.string().optional(),
      }),
    )
    .optional(),
  servers: z
    .array(
      z.looseObject({
        type: z.string().optional(),
        host: z.string().optional(),
        port: z.union([z.number(), z.string()]).optional(),
        database: z.string().optional(),
        schema: z.string().optional(),
      }),
    )
    .optional(),
});

const OPERATORS = [
  'mustBe',
  'mustNotBe',
  'mustBeGreaterThan',
  'mustBeGreaterOrEqualTo',
  'mustBeLessThan',
  'mustBeLessOrEqualTo',
  'mustBeBetween',
  'mustNotBeBetween',
] as const;
const METRICS = ['nullValues', 'missingValues', 'invalidValues', 'duplicateValues', 'rowCount'];
const TIMESTAMP_TYPE = /^(timestamp|timestamptz|datetime|date)/i;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

function zodIssues(error: z.ZodError, prefix: (string | number)[]): ContractIssue[] {
  return error.issues.map((issue) => ({
    code: 'invalid_contract',
    path: [...prefix, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    message: issue.message,
  }));
}

function constraintsOf(column: z.infer<typeof WitboostColumnSchema>): Set<string> {
  const all = [column.constraint, column.constraints].flatMap((c) =>
    c === undefined ? [] : Array.isArray(c) ? c : [c],
  );
  return new Set(
    all.map((c) =>
      c
        .trim()
        .toUpperCase()
        .replace(/[\s-]+/g, '_'),
    ),
  );
}

/** `schema.table` of a Witboost `endpoint` (a string, a URL whose path or `table` names it, or an object). */
function tableOfEndpoint(endpoint: unknown): { schema?: string; table?: string } {
  if (typeof endpoint === 'object' && endpoint !== null) {
    const record = endpoint as Record<string, unknown>;
    return {
      ...(typeof record.schema === 'string' ? { schema: record.schema } : {}),
      ...(typeof record.table === 'string' ? { table: record.table } : {}),
    };
  }
  if (typeof endpoint !== 'string' || endpoint.length > 2048) return {};
  let name = endpoint.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(name)) {
    try {
      const url = new URL(name);
      name = url.searchParams.get('table') ?? url.pathname.split('/').filter(Boolean).at(-1) ?? '';
    } catch {
      return {};
    }
  }
  const parts = name.split('.');
  if (parts.length === 1) return { table: parts[0] ?? '' };
  return { schema: parts.at(-2) ?? '', table: parts.at(-1) ?? '' };
}

function threshold(
  rule: z.infer<typeof OdcsQualitySchema>,
  path: (string | number)[],
  issues: ContractIssue[],
): Threshold | undefined {
  const present = OPERATORS.filter((op) => rule[op] !== undefined);
  if (present.length !== 1) {
    issues.push({
      code: 'invalid_contract',
      path,
      message:
        present.length === 0
          ? `a quality rule needs one operator (${OPERATORS.join(', ')})`
          : `a quality rule has one operator, this one has ${present.join(', ')}`,
    });
    return undefined;
  }
  const operator = present[0] as (typeof OPERATORS)[number];
  const value = rule[operator];
  if (operator === 'mustBeBetween' || operator === 'mustNotBeBetween') {
    if (!Array.isArray(value)) {
      issues.push({
        code: 'invalid_contract',
        path: [...path, operator],
        message: `${operator} takes two numbers [low, high]`,
      });
      return undefined;
    }
    return { operator, value: [value[0], value[1]] };
  }
  if (typeof value !== 'number') {
    issues.push({
      code: 'invalid_contract',
      path: [...path, operator],
      message: `${operator} takes a number`,
    });
    return undefined;
  }
  return { operator, value };
}

function qualityRules(
  rules: z.infer<typeof OdcsQualitySchema>[] | undefined,
  column: string | undefined,
  path: (string | number)[],
  issues: ContractIssue[],
  warnings: ContractIssue[],
): QualityRule[] {
  const out: QualityRule[] = [];
  (rules ?? []).forEach((rule, index) => {
    const at = [...path, index];
    const type = rule.type ?? 'library';
    const common = {
      ...(column === undefined ? {} : { column }),
      ...(rule.name === undefined ? {} : { name: rule.name }),
      ...(rule.description === undefined ? {} : { description: rule.description }),
      path: at,
    };
    if (type === 'sql') {
      if (rule.query === undefined || rule.query.trim() === '') {
        issues.push({
          code: 'invalid_contract',
          path: [...at, 'query'],
          message: 'a sql rule needs a query',
        });
        return;
      }
      const t = threshold(rule, at, issues);
      if (t) out.push({ kind: 'sql', query: rule.query, threshold: t, ...common });
      return;
    }
    if (type !== 'library') {
      warnings.push({
        code: 'unsupported_value',
        path: [...at, 'type'],
        message: `quality rules of type "${type}" are not run by the built-in checks`,
      });
      return;
    }
    const metric = rule.metric ?? rule.rule;
    if (metric === undefined || !METRICS.includes(metric)) {
      warnings.push({
        code: 'unsupported_value',
        path: [...at, 'metric'],
        message: `the library metric "${metric ?? ''}" is not one of ${METRICS.join(', ')}`,
      });
      return;
    }
    if (metric !== 'rowCount' && metric !== 'duplicateValues' && column === undefined) {
      issues.push({
        code: 'invalid_contract',
        path: at,
        message: `${metric} is declared on a property (column)`,
      });
      return;
    }
    const t = threshold(rule, at, issues);
    if (!t) return;
    const args = rule.arguments ?? {};
    const columns = Array.isArray(args.properties)
      ? args.properties.filter((p): p is string => typeof p === 'string')
      : undefined;
    out.push({
      kind: 'library',
      metric: metric as Extract<QualityRule, { kind: 'library' }>['metric'],
      threshold: t,
      unit: rule.unit === 'percent' || rule.unit === '%' ? 'percent' : 'rows',
      ...(columns ? { columns } : {}),
      ...(Array.isArray(args.missingValues) ? { missingValues: args.missingValues } : {}),
      ...(Array.isArray(args.validValues) ? { validValues: args.validValues } : {}),
      ...(typeof args.pattern === 'string' ? { pattern: args.pattern } : {}),
      ...common,
    });
  });
  return out;
}

function checkIdentifier(
  name: string | undefined,
  path: (string | number)[],
  what: string,
  issues: ContractIssue[],
): void {
  if (name !== undefined && !IDENTIFIER.test(name)) {
    issues.push({
      code: 'invalid_contract',
      path,
      message: `${what} "${name.slice(0, 80)}" is not a plain SQL identifier (letters, digits, _ and $, at most 63)`,
    });
  }
}

function parseWitboost(raw: unknown, fallbackName: string): ContractParse {
  const parsed = WitboostContractSchema.safeParse(raw);
  if (!parsed.success) return { success: false, issues: zodIssues(parsed.error, []) };
  const contract = parsed.data;
  const issues: ContractIssue[] = [];
  const location = tableOfEndpoint(contract.endpoint);
  const table = location.table || fallbackName;
  if (table === '') {
    issues.push({
      code: 'invalid_contract',
      path: ['endpoint'],
      message: 'no table named: set endpoint to "schema.table"',
    });
  } else checkIdentifier(table, ['endpoint'], 'the table', issues);
  checkIdentifier(location.schema, ['endpoint'], 'the schema', issues);
  const columns: ContractColumn[] = (contract.schema ?? []).map((column, index) => {
    checkIdentifier(column.name, ['schema', index, 'name'], 'the column', issues);
    const constraints = constraintsOf(column);
    const primaryKey = constraints.has('PRIMARY_KEY');
    return {
      name: column.name,
      type: column.dataType?.toLowerCase(),
      physicalType: undefined,
      required: primaryKey || constraints.has('NOT_NULL'),
      unique: primaryKey || constraints.has('UNIQUE'),
      primaryKey,
    };
  });
  let freshness: ContractModel['freshness'];
  const timeliness = contract.SLA?.timeliness;
  if (timeliness !== undefined) {
    const maxAgeMs = parseDuration(timeliness);
    const column =
      contract.freshnessColumn ?? columns.find((c) => TIMESTAMP_TYPE.test(c.type ?? ''))?.name;
    if (maxAgeMs === undefined) {
      issues.push({
        code: 'invalid_contract',
        path: ['SLA', 'timeliness'],
        message: `cannot read the duration "${String(timeliness).slice(0, 80)}" (write e.g. "2 hours", "30m", "PT2H")`,
      });
    } else if (column !== undefined) {
      freshness = { column, maxAgeMs, declared: String(timeliness) };
    }
  }
  if (issues.length > 0) return { success: false, issues };
  return {
    success: true,
    warnings: [],
    data: {
      dialect: 'witboost',
      server: undefined,
      models: [
        {
          name: table,
          schema: location.schema || undefined,
          table,
          columns,
          quality: [],
          freshness,
        },
      ],
    },
  };
}

function parseOdcs(raw: unknown): ContractParse {
  const parsed = OdcsContractSchema.safeParse(raw);
  if (!parsed.success) return { success: false, issues: zodIssues(parsed.error, []) };
  const contract = parsed.data;
  const issues: ContractIssue[] = [];
  const warnings: ContractIssue[] = [];
  const postgres = (contract.servers ?? []).find(
    (s) => s.type === undefined || /^postgres/i.test(s.type),
  );
  const server = postgres
    ? {
        ...(postgres.host === undefined ? {} : { host: postgres.host }),
        ...(postgres.port === undefined ? {} : { port: Number(postgres.port) }),
        ...(postgres.database === undefined ? {} : { database: postgres.database }),
        ...(postgres.schema === undefined ? {} : { schema: postgres.schema }),
      }
    : undefined;
  checkIdentifier(server?.schema, ['servers', 0, 'schema'], 'the schema', issues);
  const models: ContractModel[] = (contract.schema ?? []).map((object, index) => {
    const at = ['schema', index];
    const table = object.physicalName ?? object.name;
    checkIdentifier(
      table,
      [...at, object.physicalName ? 'physicalName' : 'name'],
      'the table',
      issues,
    );
    const quality = qualityRules(object.quality, undefined, [...at, 'quality'], issues, warnings);
    const columns = (object.properties ?? []).map((property, p) => {
      checkIdentifier(property.name, [...at, 'properties', p, 'name'], 'the column', issues);
      quality.push(
        ...qualityRules(
          property.quality,
          property.name,
          [...at, 'properties', p, 'quality'],
          issues,
          warnings,
        ),
      );
      return {
        name: property.name,
        type: property.logicalType?.toLowerCase(),
        physicalType: property.physicalType?.toLowerCase(),
        required: property.required === true || property.primaryKey === true,
        unique: property.unique === true || property.primaryKey === true,
        primaryKey: property.primaryKey === true,
      };
    });
    return {
      name: object.name,
      schema: server?.schema,
      table,
      columns,
      quality,
      freshness: undefined,
    };
  });
  (contract.slaProperties ?? []).forEach((sla, index) => {
    if (sla.property !== 'latency' && sla.property !== 'freshness') return;
    const maxAgeMs = parseDuration(sla.value, sla.unit);
    const at = ['slaProperties', index];
    if (maxAgeMs === undefined) {
      issues.push({
        code: 'invalid_contract',
        path: [...at, 'value'],
        message: `cannot read the duration ${JSON.stringify(sla.value)} ${sla.unit ?? ''}`.trim(),
      });
      return;
    }
    const [first, second] = (sla.element ?? '').split('.');
    const model =
      second === undefined ? models[0] : models.find((m) => m.name === first || m.table === first);
    const column =
      (second ?? first) ||
      model?.columns.find((c) => TIMESTAMP_TYPE.test(c.physicalType ?? c.type ?? ''))?.name;
    if (!model || !column) {
      issues.push({
        code: 'invalid_contract',
        path: [...at, 'element'],
        message: `the ${sla.property} SLA names no known table.column ("${(sla.element ?? '').slice(0, 80)}")`,
      });
      return;
    }
    model.freshness = {
      column,
      maxAgeMs,
      declared: `${String(sla.value)} ${sla.unit ?? ''}`.trim(),
    };
  });
  if (issues.length > 0) return { success: false, issues };
  return { success: true, warnings, data: { dialect: 'odcs', server, models } };
}

/**
 * Reads a component's `dataContract` into one contract model: the Witboost / Agile Lab shape
 * (`schema[]` columns with `name, dataType, constraint`, `SLA`, `endpoint`) or ODCS v3
 * (`apiVersion: v3.*`). Never throws: a bad contract gives issues with paths inside it.
 * `fallbackTable` names the table when a Witboost contract has no `endpoint`.
 *
 * @example
 * const parsed = parseDataContract({ schema: [{ name: 'id', dataType: 'string', constraint: 'PRIMARY_KEY' }], endpoint: 'sales.orders' });
 * if (parsed.success) console.log(parsed.data.models[0]?.table); // 'orders'
 */
export function parseDataContract(raw: unknown, fallbackTable = ''): ContractParse {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return {
      success: false,
      issues: [
        { code: 'invalid_contract', path: [], message: 'the data contract must be an object' },
      ],
    };
  }
  const apiVersion = (raw as Record<string, unknown>).apiVersion;
  if (typeof apiVersion === 'string' && /^v3\./.test(apiVersion)) return parseOdcs(raw);
  if (apiVersion !== undefined) {
    return {
      success: false,
      issues: [
        {
          code: 'unsupported_value',
          path: ['apiVersion'],
          message: `only ODCS v3.* contracts are read (apiVersion is ${JSON.stringify(apiVersion).slice(0, 40)})`,
        },
      ],
    };
  }
  return parseWitboost(raw, fallbackTable);
}
