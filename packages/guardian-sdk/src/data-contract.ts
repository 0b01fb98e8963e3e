import {
  didYouMean,
  isRangeOperator,
  odcsColumnFlags,
  THRESHOLD_OPERATORS,
  type Threshold,
  type ThresholdOperator,
  thresholdFields,
  witboostColumnFlags,
  witboostConstraints,
} from '@dcg/contract-schema';
import { z } from 'zod';
import { parseDuration } from './duration';

/** One problem of a data contract, located by a path inside the component's `dataContract`. */
export interface ContractIssue {
  /**
   * Warnings (see {@link UncheckedRule}): `unchecked_rule`, a rule the built-in checks cannot run
   * (refused at validate by default); `not_applicable`, a statement that is not about the data
   * (upTime, lifecycle dates), reported as not checked but never refused.
   */
  code: 'invalid_contract' | 'unsupported_value' | 'unchecked_rule' | 'not_applicable';
  path: (string | number)[];
  message: string;
}

/** Outcome of {@link parseDataContract}. */
export type ContractParse =
  | { success: true; data: DataContract; warnings: ContractIssue[] }
  | { success: false; issues: ContractIssue[] };

/** A comparison of an ODCS quality rule (`mustBe`, `mustBeBetween`, …), from `@dcg/contract-schema`. */
export type { Threshold };

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
      /** ODCS `severity` as written; see `isBlockingSeverity` (@dcg/contract-schema). */
      severity?: string | undefined;
      path: (string | number)[];
    }
  | {
      kind: 'sql';
      query: string;
      threshold: Threshold;
      column?: string | undefined;
      name?: string | undefined;
      description?: string | undefined;
      /** ODCS `severity` as written; see `isBlockingSeverity` (@dcg/contract-schema). */
      severity?: string | undefined;
      path: (string | number)[];
    };

/**
 * ODCS `logicalTypeOptions` the PostgreSQL checks run. Bounds are numbers, or ISO dates for date
 * and timestamp columns; a bound in `exclusive*` is strict.
 */
export interface ColumnOptions {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number | string;
  maximum?: number | string;
  exclusiveMinimum?: number | string;
  exclusiveMaximum?: number | string;
  /** A string format PostgreSQL can check with a regular expression (see {@link CHECKED_FORMATS}). */
  format?: string;
  /** The allowed values (`enum`). */
  enum?: unknown[];
}

/**
 * A rule the contract declares that the built-in checks cannot run. A guardian's tech adapter
 * refuses such a contract at validate unless it opts in to reporting them; the PostgreSQL check
 * reports each as a requirement not checked, with the reason. Never dropped.
 */
export interface UncheckedRule {
  /** Unique key of the requirement reported for it (from its path). */
  key: string;
  /** What the rule is, e.g. `quality rule "custom" on orders.amount`. */
  name: string;
  /** Where it is, inside the component's `dataContract`. */
  path: (string | number)[];
  /** Why it is not checked. */
  reason: string;
  /**
   * `false` for a statement about the system or its lifecycle rather than the data (Witboost
   * `upTime`, ODCS `generalAvailability`): reported as not checked, never refused at validate.
   */
  applicable: boolean;
}

/** A column as the contract declares it. */
export interface ContractColumn {
  name: string;
  /** Declared type, lower case as written (`decimal`, `string`, `timestamp`, `varchar(20)`). */
  type: string | undefined;
  /** ODCS `physicalType`, when declared: compared instead of `type`. */
  physicalType: string | undefined;
  required: boolean;
  /** Declared unique on its own (a column of a composite primary key is not). */
  unique: boolean;
  primaryKey: boolean;
  /** `logicalTypeOptions` checked in the data (ODCS). */
  options?: ColumnOptions | undefined;
}

/** One table (Witboost: the contract itself; ODCS: one `schema[]` object). */
export interface ContractModel {
  name: string;
  /** Database schema of the table, when the contract says it. */
  schema: string | undefined;
  table: string;
  columns: ContractColumn[];
  /** The primary key's columns, in key order: checked as a whole (one key may span columns). */
  primaryKey: string[];
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
  /** Rules the built-in checks cannot run: refused at validate or reported as not checked. */
  unchecked: UncheckedRule[];
}

/** String formats of `logicalTypeOptions.format` checked, each as a PostgreSQL regular expression. */
export const CHECKED_FORMATS: Readonly<Record<string, string>> = {
  email: '^[^@[:space:]]+@[^@[:space:]]+\\.[^@[:space:]]+$',
  uuid: '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$',
  uri: '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]*$',
  url: '^[A-Za-z][A-Za-z0-9+.-]*://[^[:space:]]+$',
  ipv4: '^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$',
  date: '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$',
  'date-time':
    '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt ][0-2][0-9]:[0-5][0-9](:[0-5][0-9](\\.[0-9]+)?)?([Zz]|[+-][0-2][0-9]:?[0-5][0-9])?$',
};

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

const OdcsQualitySchema = z.looseObject({
  type: z.string().optional(),
  metric: z.string().optional(),
  rule: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  severity: z.string().optional(),
  engine: z.string().optional(),
  query: z.string().optional(),
  unit: z.string().optional(),
  arguments: z.record(z.string(), z.unknown()).optional(),
  ...thresholdFields,
});

const OdcsPropertySchema = z.looseObject({
  name: z.string().min(1),
  physicalName: z.string().optional(),
  logicalType: z.string().optional(),
  physicalType: z.string().optional(),
  required: z.boolean().optional(),
  unique: z.boolean().optional(),
  primaryKey: z.boolean().optional(),
  primaryKeyPosition: z.number().optional(),
  // Before ODCS v3 (and in datacontract-cli's own fixtures).
  isNullable: z.boolean().optional(),
  isUnique: z.boolean().optional(),
  logicalTypeOptions: z.record(z.string(), z.unknown()).optional(),
  // ODCS v3.2: the allowed values, each `{ value, label, … }`.
  enum: z.array(z.unknown()).optional(),
  quality: z.array(OdcsQualitySchema).optional(),
  properties: z.array(z.unknown()).optional(),
  items: z.unknown().optional(),
  map: z.unknown().optional(),
  relationships: z.array(z.unknown()).optional(),
});

const OdcsSchemaObjectSchema = z.looseObject({
  name: z.string().min(1),
  physicalName: z.string().optional(),
  properties: z.array(OdcsPropertySchema).optional(),
  quality: z.array(OdcsQualitySchema).optional(),
  relationships: z.array(z.unknown()).optional(),
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
  slaDefaultElement: z.string().optional(),
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

const METRICS = ['nullValues', 'missingValues', 'invalidValues', 'duplicateValues', 'rowCount'];
const COLUMN_METRICS = ['nullValues', 'missingValues', 'invalidValues'];
const TIMESTAMP_TYPE = /^(timestamp|timestamptz|datetime|date)/i;
const DATE_LOGICAL = /^(date|timestamp|time|datetime)/i;
const MAX_IDENTIFIER_BYTES = 63;
const CHECKED_OPTIONS = [
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'format',
  'enum',
];

type Path = (string | number)[];

/** Collects the rules the built-in checks cannot run, each keyed by its path (unique). */
class Unchecked {
  readonly rules: UncheckedRule[] = [];

  add(path: Path, name: string, reason: string, applicable = true): void {
    const key = `not_checked_${path.join('_').replace(/[^A-Za-z0-9_]+/g, '_')}`.slice(0, 200);
    this.rules.push({ key, name, path, reason, applicable });
  }

  warnings(): ContractIssue[] {
    return this.rules.map((rule) => ({
      code: rule.applicable ? 'unchecked_rule' : 'not_applicable',
      path: rule.path,
      message: `${rule.name}: not checked, ${rule.reason}`,
    }));
  }
}

function zodIssues(error: z.ZodError, prefix: Path): ContractIssue[] {
  return error.issues.map((issue) => ({
    code: 'invalid_contract',
    path: [...prefix, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    message: issue.message,
  }));
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
  path: Path,
  issues: ContractIssue[],
): Threshold | undefined {
  const present = THRESHOLD_OPERATORS.filter((op) => rule[op] !== undefined);
  if (present.length !== 1) {
    issues.push({
      code: 'invalid_contract',
      path,
      message:
        present.length === 0
          ? `a quality rule needs one operator (${THRESHOLD_OPERATORS.join(', ')})`
          : `a quality rule has one operator, this one has ${present.join(', ')}`,
    });
    return undefined;
  }
  const operator = present[0] as ThresholdOperator;
  const value = rule[operator];
  if (isRangeOperator(operator)) {
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
  where: string,
  path: Path,
  issues: ContractIssue[],
  unchecked: Unchecked,
): QualityRule[] {
  const out: QualityRule[] = [];
  (rules ?? []).forEach((rule, index) => {
    const at = [...path, index];
    const type = rule.type ?? 'library';
    const label = `the quality rule ${rule.name ? `"${rule.name.slice(0, 80)}" ` : ''}on ${where}`;
    const common = {
      ...(column === undefined ? {} : { column }),
      ...(rule.name === undefined ? {} : { name: rule.name }),
      ...(rule.description === undefined ? {} : { description: rule.description }),
      ...(rule.severity === undefined ? {} : { severity: rule.severity }),
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
      if (!t) return;
      const variables = resolveVariables(rule.query);
      const unknown = variables.unresolved.filter((name) => !PLACEHOLDERS.has(name));
      if (unknown.length > 0) {
        unchecked.add(
          at,
          label,
          `its query uses the variable \${${unknown[0]}}, which this guardian does not resolve`,
        );
        return;
      }
      out.push({ kind: 'sql', query: variables.value, threshold: t, ...common });
      return;
    }
    if (type === 'text') {
      unchecked.add(at, label, 'a text rule is prose for people; no engine runs it');
      return;
    }
    if (type === 'custom') {
      unchecked.add(
        at,
        label,
        `a custom rule runs in its own engine (${(rule.engine ?? 'none named').slice(0, 40)}), which the PostgreSQL checks are not`,
      );
      return;
    }
    if (type !== 'library') {
      unchecked.add(at, label, `quality rules of type "${type.slice(0, 40)}" are not run`);
      return;
    }
    const metric = rule.metric ?? rule.rule;
    if (metric === undefined || !METRICS.includes(metric)) {
      const near = METRICS.find((m) => m.toLowerCase() === metric?.toLowerCase());
      unchecked.add(
        at,
        label,
        `the library metric "${(metric ?? '').slice(0, 40)}" is unknown${near ? ` (did you mean "${near}"?)` : ''}; the metrics are ${METRICS.join(', ')}`,
      );
      return;
    }
    if (COLUMN_METRICS.includes(metric) && column === undefined) {
      unchecked.add(
        at,
        label,
        `${metric} is a property (column) metric; on a table it names no column`,
      );
      return;
    }
    const args = rule.arguments ?? {};
    const columns = Array.isArray(args.properties)
      ? args.properties.filter((p): p is string => typeof p === 'string')
      : undefined;
    if (metric === 'duplicateValues' && column === undefined && !columns?.length) {
      unchecked.add(at, label, 'a table-level duplicateValues needs arguments.properties');
      return;
    }
    if (
      metric === 'invalidValues' &&
      !Array.isArray(args.validValues) &&
      typeof args.pattern !== 'string'
    ) {
      unchecked.add(at, label, 'invalidValues needs arguments.validValues or arguments.pattern');
      return;
    }
    const t = threshold(rule, at, issues);
    if (!t) return;
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

const isBound = (value: unknown): value is number | string =>
  (typeof value === 'number' && Number.isFinite(value)) ||
  (typeof value === 'string' && !Number.isNaN(Date.parse(value)));

/** The `logicalTypeOptions` of a property: those checked, the others as not checked. */
function columnOptions(
  raw: Record<string, unknown> | undefined,
  logicalType: string | undefined,
  where: string,
  path: Path,
  issues: ContractIssue[],
  unchecked: Unchecked,
): ColumnOptions | undefined {
  if (raw === undefined) return undefined;
  const options: ColumnOptions = {};
  let strictMin = false;
  let strictMax = false;
  const invalid = (key: string, message: string) =>
    issues.push({ code: 'invalid_contract', path: [...path, key], message });
  for (const [key, value] of Object.entries(raw)) {
    const at = [...path, key];
    switch (key) {
      case 'minLength':
      case 'maxLength':
        if (Number.isInteger(value) && (value as number) >= 0) options[key] = value as number;
        else invalid(key, `${key} takes a whole number`);
        break;
      case 'pattern':
        if (typeof value === 'string') options.pattern = value;
        else invalid(key, 'pattern takes a regular expression');
        break;
      case 'minimum':
      case 'maximum':
        if (isBound(value)) options[key] = value;
        else invalid(key, `${key} takes a number or an ISO date`);
        break;
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        // ODCS v3.0: a boolean that makes minimum / maximum strict; later: the strict bound itself.
        if (typeof value === 'boolean') {
          if (key === 'exclusiveMinimum') strictMin = value;
          else strictMax = value;
        } else if (isBound(value)) options[key] = value;
        else invalid(key, `${key} takes a number, an ISO date or a boolean`);
        break;
      case 'format': {
        const format = typeof value === 'string' ? value.toLowerCase() : '';
        if (DATE_LOGICAL.test(logicalType ?? '')) {
          unchecked.add(
            at,
            `the format "${String(value).slice(0, 40)}" of ${where}`,
            'the format of a date or time says how it is written, not what PostgreSQL stores',
          );
        } else if (/^(number|integer)/i.test(logicalType ?? '')) {
          unchecked.add(
            at,
            `the format "${String(value).slice(0, 40)}" of ${where}`,
            'a number format (i32, f64, …) names a storage width; the column type is checked instead',
          );
        } else if (CHECKED_FORMATS[format] !== undefined) options.format = format;
        else {
          unchecked.add(
            at,
            `the format "${String(value).slice(0, 40)}" of ${where}`,
            `the formats checked are ${Object.keys(CHECKED_FORMATS).join(', ')}`,
          );
        }
        break;
      }
      case 'enum':
        if (Array.isArray(value)) options.enum = value;
        else invalid(key, 'enum takes a list of values');
        break;
      default:
        unchecked.add(
          at,
          `logicalTypeOptions.${key.slice(0, 40)} of ${where}`,
          `the options checked are ${CHECKED_OPTIONS.join(', ')}`,
        );
    }
  }
  if (strictMin && options.minimum !== undefined) {
    options.exclusiveMinimum = options.minimum;
    delete options.minimum;
  }
  if (strictMax && options.maximum !== undefined) {
    options.exclusiveMaximum = options.maximum;
    delete options.maximum;
  }
  return Object.keys(options).length > 0 ? options : undefined;
}

/**
 * Keys that look like a misspelt rule-bearing key (`qualiti`, `logicalTypeOption`): what they
 * hold would be dropped without a word, so each is a rule not checked, with the likely key.
 */
function misspeltKeys(
  record: Record<string, unknown>,
  shape: Record<string, unknown>,
  keys: ReadonlyArray<string>,
  where: string,
  path: Path,
  unchecked: Unchecked,
): void {
  for (const key of Object.keys(record)) {
    if (key in shape || keys.includes(key) || key.length < 4) continue;
    const near = didYouMean(key, keys, { ignoreCase: true });
    if (near !== undefined) {
      unchecked.add(
        [...path, key],
        `"${key.slice(0, 40)}" of ${where}`,
        `it is no ODCS key (did you mean "${near}"?), so what it declares would be ignored`,
      );
    }
  }
}

const PROPERTY_RULE_KEYS = [
  'quality',
  'logicalTypeOptions',
  'required',
  'unique',
  'primaryKey',
  'enum',
  'physicalName',
  'physicalType',
  'logicalType',
];
const OBJECT_RULE_KEYS = ['quality', 'properties', 'physicalName'];
const CONTRACT_RULE_KEYS = ['schema', 'slaProperties', 'servers'];

/** PostgreSQL takes any name of 1 to 63 bytes without NUL once quoted; the checks always quote. */
function checkIdentifier(
  name: string | undefined,
  path: Path,
  what: string,
  issues: ContractIssue[],
): void {
  if (name === undefined) return;
  const bytes = new TextEncoder().encode(name).length;
  if (bytes === 0 || bytes > MAX_IDENTIFIER_BYTES || name.includes('\u0000')) {
    issues.push({
      code: 'invalid_contract',
      path,
      message: `${what} "${name.slice(0, 80)}" is not a PostgreSQL identifier (1 to ${MAX_IDENTIFIER_BYTES} bytes, no NUL character)`,
    });
  }
}

const KNOWN_CONSTRAINTS = new Set(['PRIMARY_KEY', 'NOT_NULL', 'UNIQUE']);

function parseWitboost(raw: unknown, fallbackName: string): ContractParse {
  const parsed = WitboostContractSchema.safeParse(raw);
  if (!parsed.success) return { success: false, issues: zodIssues(parsed.error, []) };
  const contract = parsed.data;
  const issues: ContractIssue[] = [];
  const unchecked = new Unchecked();
  const location = tableOfEndpoint(contract.endpoint);
  const table = location.table || fallbackName;
  if (table === '') {
    issues.push({
      code: 'invalid_contract',
      path: ['endpoint'],
      message: 'no table named: set endpoint to "schema.table"',
    });
  } else checkIdentifier(table, ['endpoint'], 'the table', issues);
  checkIdentifier(location.schema || undefined, ['endpoint'], 'the schema', issues);
  const columns: ContractColumn[] = (contract.schema ?? []).map((column, index) => {
    checkIdentifier(column.name, ['schema', index, 'name'], 'the column', issues);
    const constraints = witboostConstraints(column);
    for (const constraint of constraints) {
      if (!KNOWN_CONSTRAINTS.has(constraint)) {
        unchecked.add(
          ['schema', index, column.constraints === undefined ? 'constraint' : 'constraints'],
          `the constraint ${constraint.slice(0, 40)} of ${column.name}`,
          'the constraints checked are PRIMARY_KEY, NOT_NULL and UNIQUE',
        );
      }
    }
    return {
      name: column.name,
      type: column.dataType?.toLowerCase(),
      physicalType: undefined,
      ...witboostColumnFlags(constraints),
    };
  });
  let freshness: ContractModel['freshness'];
  const sla = contract.SLA;
  const timeliness = sla?.timeliness;
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
    } else if (column === undefined) {
      unchecked.add(
        ['SLA', 'timeliness'],
        `the SLA timeliness ${String(timeliness).slice(0, 40)}`,
        'no column of a date or timestamp type is declared (nor freshnessColumn), so the age of the data cannot be measured',
      );
    } else {
      freshness = { column, maxAgeMs, declared: String(timeliness) };
    }
  }
  if (sla?.intervalOfChange !== undefined) {
    unchecked.add(
      ['SLA', 'intervalOfChange'],
      `the SLA intervalOfChange ${String(sla.intervalOfChange).slice(0, 40)}`,
      'not applicable: the cadence at which the source changes, declared for consumers; the age of the data is what timeliness checks',
      false,
    );
  }
  if (sla?.upTime !== undefined) {
    unchecked.add(
      ['SLA', 'upTime'],
      `the SLA upTime ${String(sla.upTime).slice(0, 40)}`,
      'not applicable: the availability of the serving system, not a property of its data',
      false,
    );
  }
  if (issues.length > 0) return { success: false, issues };
  return {
    success: true,
    warnings: unchecked.warnings(),
    data: {
      dialect: 'witboost',
      server: undefined,
      models: [
        {
          name: table,
          schema: location.schema || undefined,
          table,
          columns,
          primaryKey: columns.filter((c) => c.primaryKey).map((c) => c.name),
          quality: [],
          freshness,
        },
      ],
      unchecked: unchecked.rules,
    },
  };
}

/** ODCS service levels about the system or its lifecycle, not the data: never refused. */
const NOT_APPLICABLE_SLAS = new Set([
  'availability',
  'generalAvailability',
  'endOfSupport',
  'endOfLife',
]);

/** datacontract-cli's placeholders in a sql rule (replaced by the check), not variables. */
const PLACEHOLDERS = new Set([
  'model',
  'table',
  'object',
  'schema',
  'database',
  'catalog',
  'dataset',
  'project',
  'field',
  'column',
  'property',
]);
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * An ODCS variable (RFC 0050: `${NAME}`, `${NAME:-default}`) in a value the check uses: the
 * default when there is one, else the name of the variable this guardian cannot resolve.
 */
function resolveVariables(value: string): { value: string; unresolved: string[] } {
  const unresolved: string[] = [];
  const out = value.replace(VARIABLE, (whole, name: string, fallback: string | undefined) => {
    if (fallback !== undefined) return fallback;
    unresolved.push(name);
    return whole;
  });
  return { value: out, unresolved };
}

const SLA_REASONS: Record<string, string> = {
  retention:
    'how long data stays available cannot be told from the rows that are there (a table may lawfully hold less)',
  frequency: 'how often data is updated is not measured by the built-in checks (latency is)',
  availability:
    'not applicable: the availability of the serving system, not a property of its data',
  throughput: 'throughput cannot be measured from the table',
  errorRate: 'the error rate of a pipeline cannot be measured from the table',
  generalAvailability:
    'not applicable: a lifecycle date of the contract, not a property of the data',
  endOfSupport: 'not applicable: a lifecycle date of the contract, not a property of the data',
  endOfLife: 'not applicable: a lifecycle date of the contract, not a property of the data',
  timeOfAvailability: 'the time data becomes available is not measured by the built-in checks',
};

function parseOdcs(raw: unknown): ContractParse {
  const parsed = OdcsContractSchema.safeParse(raw);
  if (!parsed.success) return { success: false, issues: zodIssues(parsed.error, []) };
  const contract = parsed.data;
  const issues: ContractIssue[] = [];
  const unchecked = new Unchecked();
  const servers = contract.servers ?? [];
  const serverIndex = servers.findIndex((s) => s.type === undefined || /^postgres/i.test(s.type));
  const found = servers[serverIndex];
  // Variables in the server (`${DB_SCHEMA:-public}`) take their default; one without is refused.
  const postgres = found
    ? (Object.fromEntries(
        Object.entries(found).map(([key, value]) => {
          if (typeof value !== 'string') return [key, value];
          const resolved = resolveVariables(value);
          if (resolved.unresolved.length > 0 && (key === 'schema' || key === 'database')) {
            issues.push({
              code: 'invalid_contract',
              path: ['servers', serverIndex, key],
              message: `the ${key} is the variable \${${resolved.unresolved[0]}}, which this guardian does not resolve: write it, or give a default (\${${resolved.unresolved[0]}:-value})`,
            });
          }
          return [key, resolved.value];
        }),
      ) as typeof found)
    : undefined;
  const server = postgres
    ? {
        ...(postgres.host === undefined ? {} : { host: postgres.host }),
        ...(postgres.port === undefined || Number.isNaN(Number(postgres.port))
          ? {}
          : { port: Number(postgres.port) }),
        ...(postgres.database === undefined ? {} : { database: postgres.database }),
        ...(postgres.schema === undefined ? {} : { schema: postgres.schema }),
      }
    : undefined;
  checkIdentifier(server?.schema, ['servers', serverIndex, 'schema'], 'the schema', issues);
  misspeltKeys(
    contract,
    OdcsContractSchema.shape,
    CONTRACT_RULE_KEYS,
    'the contract',
    [],
    unchecked,
  );
  if ((contract.schema ?? []).length === 0) {
    unchecked.add(
      ['schema'],
      'the schema of the contract',
      'the contract declares no table (no schema objects), so there is nothing to check it against',
    );
  }
  const models: ContractModel[] = (contract.schema ?? []).map((object, index) => {
    const at = ['schema', index];
    const table = object.physicalName ?? object.name;
    misspeltKeys(
      object,
      OdcsSchemaObjectSchema.shape,
      OBJECT_RULE_KEYS,
      object.name,
      at,
      unchecked,
    );
    checkIdentifier(
      table,
      [...at, object.physicalName ? 'physicalName' : 'name'],
      'the table',
      issues,
    );
    if (object.relationships?.length) {
      unchecked.add(
        [...at, 'relationships'],
        `the relationships of ${object.name}`,
        'references between tables are not checked',
      );
    }
    const quality = qualityRules(
      object.quality,
      undefined,
      object.name,
      [...at, 'quality'],
      issues,
      unchecked,
    );
    const keyed: Array<{ position: number; index: number }> = [];
    const columns = (object.properties ?? []).map((property, p) => {
      const pat = [...at, 'properties', p];
      const name = property.physicalName ?? property.name;
      const where = `${object.name}.${name}`;
      misspeltKeys(property, OdcsPropertySchema.shape, PROPERTY_RULE_KEYS, where, pat, unchecked);
      checkIdentifier(
        name,
        [...pat, property.physicalName ? 'physicalName' : 'name'],
        'the column',
        issues,
      );
      quality.push(
        ...qualityRules(property.quality, name, where, [...pat, 'quality'], issues, unchecked),
      );
      if (
        property.properties?.length ||
        property.items !== undefined ||
        property.map !== undefined
      ) {
        unchecked.add(
          [
            ...pat,
            property.items !== undefined
              ? 'items'
              : property.map !== undefined
                ? 'map'
                : 'properties',
          ],
          `the nested fields of ${where}`,
          'fields inside a column (object or array) are not checked; the column itself is',
        );
      }
      if (property.relationships?.length) {
        unchecked.add(
          [...pat, 'relationships'],
          `the relationships of ${where}`,
          'references between tables are not checked',
        );
      }
      let options = columnOptions(
        property.logicalTypeOptions,
        property.logicalType,
        where,
        [...pat, 'logicalTypeOptions'],
        issues,
        unchecked,
      );
      if (property.enum !== undefined) {
        const values = property.enum.map((item) =>
          typeof item === 'object' && item !== null && 'value' in item
            ? (item as { value: unknown }).value
            : item,
        );
        if (options?.enum === undefined) {
          options = { ...(options ?? {}), enum: values };
        }
      }
      const flags = odcsColumnFlags(property);
      if (flags.primaryKey) keyed.push({ position: property.primaryKeyPosition ?? p, index: p });
      return {
        name,
        type: property.logicalType?.toLowerCase(),
        physicalType: property.physicalType?.toLowerCase(),
        ...flags,
        ...(options ? { options } : {}),
      };
    });
    // A composite key in its declared order (primaryKeyPosition), so messages read as written.
    const primaryKey = keyed
      .sort((a, b) => a.position - b.position)
      .map((k) => (columns[k.index] as ContractColumn).name);
    return {
      name: object.name,
      schema: server?.schema,
      table,
      columns,
      primaryKey,
      quality,
      freshness: undefined,
    };
  });
  (contract.slaProperties ?? []).forEach((sla, index) => {
    const at = ['slaProperties', index];
    if (sla.property !== 'latency' && sla.property !== 'freshness') {
      unchecked.add(
        at,
        `the SLA ${sla.property.slice(0, 40)}`,
        SLA_REASONS[sla.property] ?? 'this service level is not measured by the built-in checks',
        !NOT_APPLICABLE_SLAS.has(sla.property),
      );
      return;
    }
    const maxAgeMs = parseDuration(sla.value, sla.unit);
    if (maxAgeMs === undefined) {
      issues.push({
        code: 'invalid_contract',
        path: [...at, 'value'],
        message: `cannot read the duration ${JSON.stringify(sla.value)} ${sla.unit ?? ''}`.trim(),
      });
      return;
    }
    // ODCS `slaDefaultElement` is the element of every SLA that names none.
    const element = sla.element ?? contract.slaDefaultElement;
    const [first, second] = (element ?? '').split('.');
    const model =
      second === undefined ? models[0] : models.find((m) => m.name === first || m.table === first);
    // The element may name the column by its logical name: the check reads its physicalName.
    const named = second ?? first;
    const properties = contract.schema?.[model ? models.indexOf(model) : -1]?.properties ?? [];
    const column =
      (named && (properties.find((p) => p.name === named)?.physicalName ?? named)) ||
      model?.columns.find((c) => TIMESTAMP_TYPE.test(c.physicalType ?? c.type ?? ''))?.name;
    if (!model || !column) {
      unchecked.add(
        at,
        `the ${sla.property} SLA`,
        `its element "${(element ?? '').slice(0, 80)}" names no table.column of the contract (and no timestamp column was found)`,
      );
      return;
    }
    model.freshness = {
      column,
      maxAgeMs,
      declared: `${String(sla.value)} ${sla.unit ?? ''}`.trim(),
    };
  });
  if (issues.length > 0) return { success: false, issues };
  return {
    success: true,
    warnings: unchecked.warnings(),
    data: { dialect: 'odcs', server, models, unchecked: unchecked.rules },
  };
}

/**
 * The contract as PyYAML and Python models write it, read as its author meant: a key whose value
 * is `null` is absent (`quality: null`, `mustBe: null`), and a YAML timestamp is its ISO text.
 * Nulls inside lists (`missingValues: [null, '']`) are kept.
 */
function normalised(value: unknown, depth = 0): unknown {
  if (depth > 64) return value;
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (Array.isArray(value)) return value.map((item) => normalised(item, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item !== null && item !== undefined) out[key] = normalised(item, depth + 1);
  }
  return out;
}

function looksLikeOdcs(contract: Record<string, unknown>): boolean {
  if (contract.kind === 'DataContract') return true;
  const schema = contract.schema;
  return (
    Array.isArray(schema) &&
    schema.some(
      (item) =>
        typeof item === 'object' &&
        item !== null &&
        Array.isArray((item as Record<string, unknown>).properties),
    )
  );
}

/**
 * Reads a component's `dataContract` into one contract model: the Witboost / Agile Lab shape
 * (`schema[]` columns with `name, dataType, constraint`, `SLA`, `endpoint`) or ODCS v3
 * (`apiVersion: v3.*`). Never throws: a bad contract gives issues with paths inside it. Rules
 * the built-in checks cannot run are kept in `data.unchecked` and listed in `warnings`.
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
  const contract = normalised(raw) as Record<string, unknown>;
  const apiVersion = contract.apiVersion;
  if (typeof apiVersion === 'string' && /^v3\./.test(apiVersion)) return parseOdcs(contract);
  // Without its apiVersion an ODCS contract would be read as a Witboost one (its tables as
  // columns): refused, naming the missing key.
  if (apiVersion === undefined && looksLikeOdcs(contract)) {
    return {
      success: false,
      issues: [
        {
          code: 'invalid_contract',
          path: ['apiVersion'],
          message:
            'an ODCS contract (kind DataContract, or schema objects with properties) needs apiVersion (v3.x)',
        },
      ],
    };
  }
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
  return parseWitboost(contract, fallbackTable);
}
