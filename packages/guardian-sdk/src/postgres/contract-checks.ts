import { describeThreshold, meetsThreshold, type ValidationRecord } from '@dcg/contract-schema';
import {
  CHECKED_FORMATS,
  type ColumnOptions,
  type ContractColumn,
  type ContractModel,
  type DataContract,
  type QualityRule,
} from '../data-contract';
import { formatDuration } from '../duration';
import { notCheckedSection, requirement, section } from '../result-builder';
import { type Check, type CheckContext, defineCheck } from '../run-guardian';
import { isCompatibleType } from './type-compatibility';

/** The part of a `pg` pool client the checks use. */
export interface PostgresQueryable {
  query(config: {
    text: string;
    values?: unknown[];
    queryMode?: 'extended';
    rowMode?: 'array';
  }): Promise<{ rows: unknown[] }>;
}

/** A `pg.Pool` (or anything that lends clients the same way). */
export interface PostgresPool {
  connect(): Promise<PostgresQueryable & { release(destroy?: boolean | Error): void }>;
}

/** Options of {@link postgresContractCheck}. */
export interface PostgresCheckOptions {
  pool: PostgresPool;
  /** Schema of tables whose contract names none (default `public`). */
  defaultSchema?: string;
  /** Each statement's timeout (default 30 000 ms). */
  statementTimeoutMs?: number;
  /** The clock for freshness (default `new Date()`). */
  now?: () => Date;
  /** Called with the time spent waiting on PostgreSQL for each table (benchmarks, metrics). */
  onDatabaseTime?: (ms: number) => void;
  /**
   * Columns in the table but not in the contract: `'allow'` (default; as datacontract-cli) or
   * `'violation'` (a `no_unexpected_columns` requirement per table).
   */
  unexpectedColumns?: 'allow' | 'violation';
}

interface ActualColumn {
  name: string;
  type: string;
  not_null: boolean;
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One aggregate over the table: every column metric in a single pass. */
class MetricsQuery {
  private readonly expressions: string[] = ['count(*)'];
  private readonly values: unknown[] = [];

  add(expression: string): number {
    this.expressions.push(expression);
    return this.expressions.length - 1;
  }

  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  sql(table: string): { text: string; values: unknown[] } {
    return { text: `SELECT ${this.expressions.join(', ')} FROM ${table}`, values: this.values };
  }
}

function libraryMetricExpression(
  rule: Extract<QualityRule, { kind: 'library' }>,
  query: MetricsQuery,
  comparable: (column: string) => string,
): number | undefined {
  const column = rule.column === undefined ? undefined : quote(rule.column);
  switch (rule.metric) {
    case 'rowCount':
      return 0;
    case 'nullValues':
      return column ? query.add(`count(*) FILTER (WHERE ${column} IS NULL)`) : undefined;
    case 'missingValues': {
      if (!column) return undefined;
      const missing = (rule.missingValues ?? []).filter((v) => v !== null).map(String);
      const extra =
        missing.length > 0 ? ` OR ${column}::text = ANY(${query.param(missing)}::text[])` : '';
      return query.add(`count(*) FILTER (WHERE ${column} IS NULL${extra})`);
    }
    case 'invalidValues': {
      if (!column) return undefined;
      const conditions: string[] = [];
      if (rule.validValues) {
        conditions.push(
          `NOT (${column}::text = ANY(${query.param(rule.validValues.map(String))}::text[]))`,
        );
      }
      if (rule.pattern) conditions.push(`${column}::text !~ ${query.param(rule.pattern)}`);
      if (conditions.length === 0) return undefined;
      return query.add(
        `count(*) FILTER (WHERE ${column} IS NOT NULL AND (${conditions.join(' OR ')}))`,
      );
    }
    case 'duplicateValues': {
      const columns = rule.column ? [rule.column] : (rule.columns ?? []);
      if (columns.length === 0) return undefined;
      const tuple =
        columns.length === 1
          ? comparable(columns[0] as string)
          : `(${columns.map(comparable).join(', ')})`;
      const nonNull = columns.map((c) => `${quote(c)} IS NOT NULL`).join(' AND ');
      return query.add(
        `count(*) FILTER (WHERE ${nonNull}) - count(DISTINCT ${tuple}) FILTER (WHERE ${nonNull})`,
      );
    }
  }
}

/** Keys unique among siblings (A4): a repeated key gets `_2`, `_3`, … */
class Keys {
  private readonly seen = new Set<string>();

  unique(key: string): string {
    let candidate = key;
    for (let n = 2; this.seen.has(candidate); n++) candidate = `${key}_${n}`;
    this.seen.add(candidate);
    return candidate;
  }
}

function ruleKey(rule: QualityRule, index: number): string {
  if (rule.name) return rule.name.replace(/[^A-Za-z0-9_]+/g, '_').slice(0, 80);
  if (rule.kind === 'sql') return `sql_${index + 1}`;
  return [rule.column ?? rule.columns?.join('_'), rule.metric].filter(Boolean).join('_');
}

function ruleName(rule: QualityRule): string {
  if (rule.name) return rule.name;
  if (rule.kind === 'sql') return rule.description ?? 'SQL check';
  const on = rule.column ?? rule.columns?.join(', ');
  return `${rule.metric}${on ? ` of ${on}` : ''}`;
}

/** Where a sql rule runs: the names its placeholders stand for. */
interface SqlScope {
  table: string;
  schema: string;
  database: string | undefined;
}

const PLACEHOLDER = (name: string) => new RegExp(`["']?\\$?\\{${name}\\}["']?`, 'g');

/**
 * A sql rule's query with datacontract-cli's placeholders replaced (`{model}`, `{table}`,
 * `{object}`, `{schema}`, `{database}`, `{catalog}`, `{dataset}`, `{project}`, and on a property
 * `{field}`, `{column}`, `{property}`; each also as `${…}` and with surrounding quotes), as
 * quoted identifiers. Where the contract names no database, `{database}` and the like stand for
 * the table, as in datacontract-cli.
 *
 * @example
 * sqlWithPlaceholders('SELECT count(*) FROM ${model}', undefined, { table: 'orders', schema: 'sales', database: undefined });
 * // 'SELECT count(*) FROM "orders"'
 */
export function sqlWithPlaceholders(
  query: string,
  column: string | undefined,
  scope: SqlScope,
): string {
  const table = quote(scope.table);
  let out = query;
  for (const name of ['model', 'table', 'object'])
    out = out.replace(PLACEHOLDER(name), () => table);
  out = out.replace(PLACEHOLDER('schema'), () => quote(scope.schema));
  const database = scope.database === undefined ? table : quote(scope.database);
  for (const name of ['database', 'catalog', 'dataset', 'project'])
    out = out.replace(PLACEHOLDER(name), () => database);
  if (column !== undefined) {
    for (const name of ['field', 'column', 'property'])
      out = out.replace(PLACEHOLDER(name), () => quote(column));
  }
  return out;
}

const NUMERIC = /^(smallint|integer|bigint|numeric|real|double precision)/;
const DATED = /^(date|timestamp)/;

/** An error that means the check could not run (timeout, cancelled, connection lost), not a verdict. */
function couldNotRun(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code !== 'string' || code === '57014' || code.startsWith('08') || code === '57P01';
}

/**
 * The regular expressions PostgreSQL refuses, with its message: one query for all, and only when
 * it fails, one savepoint per pattern to tell which (a bad pattern would abort the one pass).
 */
async function badPatterns(
  client: PostgresQueryable,
  patterns: string[],
  timed: <T>(work: () => Promise<T>) => Promise<T>,
): Promise<Map<string, string>> {
  const bad = new Map<string, string>();
  const unique = [...new Set(patterns)];
  if (unique.length === 0) return bad;
  const test = async (list: string[]) => {
    await timed(() => client.query({ text: 'SAVEPOINT dcg_patterns' }));
    try {
      await timed(() =>
        client.query({ text: "SELECT '' ~ p FROM unnest($1::text[]) p", values: [list] }),
      );
      await timed(() => client.query({ text: 'RELEASE SAVEPOINT dcg_patterns' }));
      return undefined;
    } catch (error) {
      if (couldNotRun(error)) throw error;
      await timed(() => client.query({ text: 'ROLLBACK TO SAVEPOINT dcg_patterns' }));
      return (error as Error).message;
    }
  };
  if ((await test(unique)) === undefined) return bad;
  for (const pattern of unique) {
    const message = await test([pattern]);
    if (message !== undefined) bad.set(pattern, message);
  }
  return bad;
}

/** One `logicalTypeOptions` requirement of a column: its key, name and the rows that break it. */
interface OptionSpec {
  key: string;
  name: string;
  column: string;
  index?: number;
  unavailable?: string;
  what: string;
}

function optionSpecs(
  column: ContractColumn,
  actualType: string,
  query: MetricsQuery,
  bad: Map<string, string>,
): OptionSpec[] {
  const options = column.options;
  if (!options) return [];
  const col = quote(column.name);
  const specs: OptionSpec[] = [];
  const violations = (condition: string) =>
    query.add(`count(*) FILTER (WHERE ${col} IS NOT NULL AND (${condition}))`);
  const add = (
    option: string,
    name: string,
    what: string,
    condition: () => string | { unavailable: string },
  ) => {
    const built = condition();
    specs.push({
      key: `${column.name}_${option}`,
      name: `${column.name} ${name}`,
      column: column.name,
      what,
      ...(typeof built === 'string' ? { index: violations(built) } : built),
    });
  };
  const lengths = [
    ['minLength', 'min_length', '<', 'at least', 'shorter than'],
    ['maxLength', 'max_length', '>', 'at most', 'longer than'],
  ] as const;
  for (const [option, key, breaks, reads, what] of lengths) {
    const n = options[option];
    if (n === undefined) continue;
    add(
      key,
      `is ${reads} ${n} characters long`,
      `${what} ${n} characters`,
      () => `char_length(${col}::text) ${breaks} ${query.param(n)}::int`,
    );
  }
  const regex = (pattern: string) => () => {
    const error = bad.get(pattern);
    return error === undefined
      ? `${col}::text !~ ${query.param(pattern)}`
      : { unavailable: `the pattern is not a PostgreSQL regular expression (${error})` };
  };
  if (options.pattern !== undefined) {
    add(
      'pattern',
      `matches ${options.pattern}`,
      'not matching the pattern',
      regex(options.pattern),
    );
  }
  if (options.format !== undefined) {
    const pattern = CHECKED_FORMATS[options.format] as string;
    add('format', `is a valid ${options.format}`, `not a valid ${options.format}`, regex(pattern));
  }
  if (options.enum !== undefined) {
    const values = options.enum.map(String);
    add(
      'enum',
      `is one of ${values.slice(0, 10).join(', ')}`,
      'not among the allowed values',
      () => `NOT (${col}::text = ANY(${query.param(values)}::text[]))`,
    );
  }
  const bounds: Array<[keyof ColumnOptions, string, string, string]> = [
    ['minimum', 'minimum', '<', 'at least'],
    ['exclusiveMinimum', 'exclusive_minimum', '<=', 'greater than'],
    ['maximum', 'maximum', '>', 'at most'],
    ['exclusiveMaximum', 'exclusive_maximum', '>=', 'less than'],
  ];
  for (const [option, key, breaks, reads] of bounds) {
    const bound = options[option] as number | string | undefined;
    if (bound === undefined) continue;
    add(
      key,
      `is ${reads} ${bound}`,
      `${breaks === '<' || breaks === '<=' ? 'below' : 'above'} ${reads} ${bound}`,
      () => {
        if (typeof bound === 'number' && NUMERIC.test(actualType)) {
          return `${col}::numeric ${breaks} ${query.param(String(bound))}::numeric`;
        }
        if (typeof bound === 'string' && DATED.test(actualType)) {
          return `${col}::timestamptz ${breaks} ${query.param(bound)}::timestamptz`;
        }
        return {
          unavailable: `${column.name} is ${actualType}; ${option} ${bound} needs a ${typeof bound === 'number' ? 'number' : 'date or timestamp'} column`,
        };
      },
    );
  }
  return specs;
}

async function checkModel(
  client: PostgresQueryable,
  model: ContractModel,
  contract: DataContract,
  options: PostgresCheckOptions,
  context: CheckContext,
  timed: <T>(work: () => Promise<T>) => Promise<T>,
): Promise<ValidationRecord[]> {
  const schemaName = model.schema ?? options.defaultSchema ?? 'public';
  const tableName = `${schemaName}.${model.table}`;
  const table = `${quote(schemaName)}.${quote(model.table)}`;
  const { rows } = await timed(() =>
    client.query({
      text: `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null
        FROM pg_catalog.pg_attribute a
        JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
        JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind IN ('r','v','m','p','f')
          AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY a.attnum`,
      values: [schemaName, model.table],
    }),
  );
  const actual = new Map((rows as ActualColumn[]).map((c) => [c.name, c]));
  const tableExists = actual.size > 0;
  const unavailable = (why: string) => [`cannot be checked: ${why}`];
  const missingTable = `the table ${tableName} does not exist`;

  // Schema: every declared column exists with a compatible type and nullability.
  const schemaKeys = new Keys();
  const schemaRecords = model.columns.map((column) => {
    const found = actual.get(column.name);
    const issues: string[] = [];
    if (!tableExists) issues.push(missingTable);
    else if (!found) issues.push(`column ${column.name} is missing from ${tableName}`);
    else {
      const declared = column.physicalType ?? column.type;
      if (isCompatibleType(found.type, column) === false) {
        issues.push(`column ${column.name} is ${found.type}, the contract says ${declared}`);
      }
      if (column.required && !found.not_null) {
        issues.push(`column ${column.name} allows nulls, the contract says it is required`);
      }
    }
    return requirement(schemaKeys.unique(`${column.name}_column`), `column ${column.name}`).check(
      issues,
    );
  });
  // Columns beyond the contract: a violation only when asked (datacontract-cli has no such check;
  // Soda and Great Expectations make it opt-in).
  if (options.unexpectedColumns === 'violation') {
    const declared = new Set(model.columns.map((c) => c.name));
    const unexpected = [...actual.keys()].filter((name) => !declared.has(name));
    schemaRecords.push(
      requirement(
        schemaKeys.unique('no_unexpected_columns'),
        'no columns beyond the contract',
      ).check(
        !tableExists
          ? [missingTable]
          : unexpected.map((name) => `column ${name} of ${tableName} is not in the contract`),
      ),
    );
  }

  const present = (name: string) => actual.has(name);
  const patterns = tableExists
    ? [
        ...model.columns.flatMap((c) =>
          present(c.name)
            ? [
                c.options?.pattern,
                c.options?.format ? CHECKED_FORMATS[c.options.format] : undefined,
              ]
            : [],
        ),
        ...model.quality.map((rule) => (rule.kind === 'library' ? rule.pattern : undefined)),
      ].filter((p): p is string => p !== undefined)
    : [];
  const bad = await badPatterns(client, patterns, timed);

  // One aggregate pass for constraints, library metrics and freshness.
  const query = new MetricsQuery();
  const constraintSpecs: Array<{
    key: string;
    name: string;
    index?: number;
    nulls?: number;
    of: string[];
  }> = [];
  // Types without equality (json, xml) are compared as text, so the one pass never fails on them.
  const comparable = (name: string) =>
    /^(json|xml)$/.test(actual.get(name)?.type ?? '') ? `${quote(name)}::text` : quote(name);
  const keyColumns = model.primaryKey;
  if (keyColumns.length > 0) {
    const ok = tableExists && keyColumns.every(present);
    // The key as a whole: a composite key holds when no two rows share all its columns.
    const tuple =
      keyColumns.length === 1
        ? comparable(keyColumns[0] as string)
        : `(${keyColumns.map(comparable).join(', ')})`;
    constraintSpecs.push({
      key: 'primary_key',
      name: `primary key (${keyColumns.join(', ')}) is unique`,
      of: keyColumns,
      ...(ok ? { index: query.add(`count(${tuple}) - count(DISTINCT ${tuple})`) } : {}),
    });
  }
  const optionRecords: OptionSpec[] = [];
  for (const column of model.columns) {
    const ok = tableExists && present(column.name);
    if (column.unique && !(keyColumns.length === 1 && keyColumns[0] === column.name)) {
      constraintSpecs.push({
        key: `${column.name}_unique`,
        name: `${column.name} is unique`,
        of: [column.name],
        ...(ok
          ? {
              index: query.add(
                `count(${quote(column.name)}) - count(DISTINCT ${comparable(column.name)})`,
              ),
            }
          : {}),
      });
    }
    if (column.required) {
      constraintSpecs.push({
        key: `${column.name}_not_null`,
        name: `${column.name} is never null`,
        of: [column.name],
        ...(ok
          ? { nulls: query.add(`count(*) FILTER (WHERE ${quote(column.name)} IS NULL)`) }
          : {}),
      });
    }
    if (column.options) {
      const type = actual.get(column.name)?.type ?? '';
      const specs = optionSpecs(column, type, ok ? query : new MetricsQuery(), bad);
      optionRecords.push(...(ok ? specs : specs.map(({ index: _, ...spec }) => spec)));
    }
  }
  const libraryIndexes = model.quality.map((rule) => {
    if (rule.kind !== 'library') return undefined;
    const needed = rule.column ? [rule.column] : (rule.columns ?? []);
    if (!tableExists || !needed.every(present)) return undefined;
    if (rule.pattern !== undefined && bad.has(rule.pattern)) return undefined;
    return libraryMetricExpression(rule, query, comparable);
  });
  const freshness = model.freshness;
  const freshType = freshness ? actual.get(freshness.column)?.type : undefined;
  // Only a date or timestamp column says when data changed (a cast of text could fail the pass).
  const freshTyped = freshType !== undefined && /^(timestamp|date)/.test(freshType);
  const freshIndex =
    freshness && freshTyped
      ? query.add(`extract(epoch from max(${quote(freshness.column)}::timestamptz))`)
      : undefined;

  let values: unknown[] = [];
  if (tableExists && !context.signal.aborted) {
    const { rows: aggregate } = await timed(() =>
      client.query({ ...query.sql(table), rowMode: 'array' }),
    );
    values = (aggregate[0] as unknown[] | undefined) ?? [];
  }
  const num = (index: number | undefined) =>
    index === undefined ? undefined : Number(values[index] ?? 0);
  const rowCount = num(0) ?? 0;
  const missingColumns = (of: string[]) => of.filter((c) => !present(c));

  const constraintKeys = new Keys();
  const constraintRecords = constraintSpecs.map((spec) => {
    const built = requirement(constraintKeys.unique(spec.key), spec.name);
    if (!tableExists) return built.violated(unavailable(missingTable));
    const gone = missingColumns(spec.of);
    if (gone.length > 0) return built.violated(unavailable(`column ${gone.join(', ')} is missing`));
    const issues: string[] = [];
    const duplicates = num(spec.index);
    if (duplicates !== undefined && duplicates > 0) {
      issues.push(
        `${plural(duplicates, 'row repeats', 'rows repeat')} the ${spec.of.join(', ')} of another row`,
      );
    }
    const nulls = num(spec.nulls);
    if (nulls !== undefined && nulls > 0)
      issues.push(`${plural(nulls, 'row has', 'rows have')} a null ${spec.of[0]}`);
    return built.check(issues);
  });
  for (const spec of optionRecords) {
    const built = requirement(constraintKeys.unique(spec.key), spec.name);
    if (!tableExists) constraintRecords.push(built.violated(unavailable(missingTable)));
    else if (!present(spec.column)) {
      constraintRecords.push(built.violated(unavailable(`column ${spec.column} is missing`)));
    } else if (spec.unavailable !== undefined) {
      constraintRecords.push(built.violated(unavailable(spec.unavailable)));
    } else {
      const count = num(spec.index) ?? 0;
      constraintRecords.push(
        built.check(
          count > 0
            ? [`${plural(count, 'row has', 'rows have')} a ${spec.column} ${spec.what}`]
            : [],
        ),
      );
    }
  }

  const qualityKeys = new Keys();
  const qualityRecords: ValidationRecord[] = [];
  const sqlScope: SqlScope = {
    table: model.table,
    schema: schemaName,
    database: contract.server?.database,
  };
  let searchPathSet = false;
  for (const [index, rule] of model.quality.entries()) {
    const built = requirement(
      qualityKeys.unique(ruleKey(rule, index)),
      ruleName(rule),
      rule.description,
      { severity: rule.severity },
    );
    if (!tableExists) {
      qualityRecords.push(built.violated(unavailable(missingTable)));
      continue;
    }
    if (rule.kind === 'sql') {
      if (!searchPathSet) {
        // Unqualified table names in a rule resolve in the table's schema, for this transaction only.
        await timed(() =>
          client.query({
            text: "SELECT set_config('search_path', $1, true)",
            values: [quote(schemaName)],
          }),
        );
        searchPathSet = true;
      }
      const text = sqlWithPlaceholders(rule.query, rule.column, sqlScope);
      // A failing rule rolls back to its savepoint; the transaction (and its settings) goes on.
      await timed(() => client.query({ text: 'SAVEPOINT dcg_rule' }));
      try {
        const { rows: result } = await timed(() =>
          client.query({ text, queryMode: 'extended', rowMode: 'array' }),
        );
        await timed(() => client.query({ text: 'RELEASE SAVEPOINT dcg_rule' }));
        const first = (result[0] as unknown[] | undefined)?.[0];
        const value = Number(first);
        if (first === undefined || first === null || Number.isNaN(value)) {
          qualityRecords.push(
            built.violated(`the query returned no number (${JSON.stringify(first ?? null)})`),
          );
        } else {
          qualityRecords.push(
            built.check(
              meetsThreshold(value, rule.threshold)
                ? []
                : [`the query returned ${value}, it ${describeThreshold(rule.threshold)}`],
            ),
          );
        }
      } catch (error) {
        if (couldNotRun(error)) throw error;
        await timed(() => client.query({ text: 'ROLLBACK TO SAVEPOINT dcg_rule' }));
        qualityRecords.push(built.violated(`the query failed: ${(error as Error).message}`));
      }
      continue;
    }
    const gone = missingColumns(rule.column ? [rule.column] : (rule.columns ?? []));
    if (gone.length > 0) {
      qualityRecords.push(built.violated(unavailable(`column ${gone.join(', ')} is missing`)));
      continue;
    }
    if (rule.pattern !== undefined && bad.has(rule.pattern)) {
      qualityRecords.push(
        built.violated(
          unavailable(
            `the pattern is not a PostgreSQL regular expression (${bad.get(rule.pattern)})`,
          ),
        ),
      );
      continue;
    }
    const count = num(libraryIndexes[index]) ?? 0;
    const measured =
      rule.unit === 'percent' && rule.metric !== 'rowCount'
        ? rowCount === 0
          ? 0
          : (count * 100) / rowCount
        : count;
    const shown =
      rule.unit === 'percent' && rule.metric !== 'rowCount'
        ? `${measured.toFixed(2)} % of rows`
        : plural(measured, 'row');
    const what =
      rule.metric === 'rowCount' ? `the table has ${shown}` : `${ruleName(rule)}: ${shown}`;
    qualityRecords.push(
      built.check(
        meetsThreshold(measured, rule.threshold)
          ? []
          : [`${what}; it ${describeThreshold(rule.threshold)}`],
      ),
    );
  }

  const freshnessRecords: ValidationRecord[] = [];
  if (freshness) {
    const built = requirement('freshness', `updated within ${freshness.declared}`);
    if (!tableExists) freshnessRecords.push(built.violated(unavailable(missingTable)));
    else if (!present(freshness.column)) {
      freshnessRecords.push(built.violated(unavailable(`column ${freshness.column} is missing`)));
    } else if (!freshTyped) {
      freshnessRecords.push(
        built.violated(
          unavailable(
            `column ${freshness.column} is ${freshType}, freshness needs a date or timestamp`,
          ),
        ),
      );
    } else {
      const newest = values[freshIndex as number];
      if (newest === null || newest === undefined) {
        freshnessRecords.push(
          built.violated(`${tableName} has no ${freshness.column} value: no update is known`),
        );
      } else {
        const age = (options.now?.() ?? new Date()).getTime() - Number(newest) * 1000;
        freshnessRecords.push(
          built.check(
            age > freshness.maxAgeMs
              ? [
                  `the newest ${freshness.column} is ${formatDuration(age)} old, the SLA allows ${formatDuration(freshness.maxAgeMs)}`,
                ]
              : [],
          ),
        );
      }
    }
  }

  return [
    section('schema', 'Schema', schemaRecords),
    ...(constraintRecords.length > 0
      ? [section('constraints', 'Constraints', constraintRecords)]
      : []),
    ...(qualityRecords.length > 0 ? [section('quality', 'Quality', qualityRecords)] : []),
    ...(freshnessRecords.length > 0 ? [section('sla', 'SLA', freshnessRecords)] : []),
  ];
}

/**
 * The built-in contract checks on PostgreSQL, as one check: for each table of the contract, its
 * schema (columns, types, nullability; unexpected columns when asked), its constraints in the
 * data (primary key as a whole, unique, NOT NULL, `logicalTypeOptions`), the ODCS library metrics
 * and `sql` rules (datacontract-cli's placeholders, unqualified names in the table's schema), and
 * freshness against the SLA; then each rule of `contract.unchecked` as a requirement not checked.
 * Everything runs in a read-only transaction with a statement timeout; the column metrics of a
 * table are one aggregate query (one pass).
 *
 * @example
 * import pg from 'pg';
 * const checks = [postgresContractCheck({ pool: new pg.Pool({ connectionString }) })];
 */
export function postgresContractCheck(options: PostgresCheckOptions): Check {
  return defineCheck('postgres_contract', async (context) => {
    const client = await options.pool.connect();
    let released = false;
    const release = (destroy: boolean) => {
      if (released) return;
      released = true;
      client.release(destroy);
    };
    // Abandoned (the guardian stops): drop the connection, so this check ends now, and cancel the
    // statement on the server, which may be waiting for a lock.
    const onAbort = () => {
      const pid = (client as { processID?: unknown }).processID;
      release(true);
      if (typeof pid !== 'number') return;
      void options.pool
        .connect()
        .then((other) =>
          other
            .query({ text: 'SELECT pg_cancel_backend($1)', values: [pid] })
            .finally(() => other.release()),
        )
        .catch(() => undefined);
    };
    context.signal.addEventListener('abort', onAbort, { once: true });
    let broken = false;
    let dbMs = 0;
    const timed = async <T>(work: () => Promise<T>): Promise<T> => {
      const t0 = performance.now();
      try {
        return await work();
      } finally {
        dbMs += performance.now() - t0;
      }
    };
    try {
      context.signal.throwIfAborted();
      await timed(() => client.query({ text: 'BEGIN TRANSACTION READ ONLY' }));
      await timed(() =>
        client.query({
          text: "SELECT set_config('statement_timeout', $1, true)",
          values: [String(options.statementTimeoutMs ?? 30_000)],
        }),
      );
      const models = context.contract.models;
      const out: ValidationRecord[] = [];
      for (const model of models) {
        const records = await checkModel(client, model, context.contract, options, context, timed);
        out.push(...(models.length === 1 ? records : [section(model.name, model.name, records)]));
      }
      await timed(() => client.query({ text: 'ROLLBACK' }));
      // A4 rule 5: the rules no check ran are reported too, as not checked, with the reason.
      const unchecked = notCheckedSection(context.contract.unchecked ?? []);
      if (unchecked) out.push(unchecked);
      return out;
    } catch (error) {
      broken = true;
      throw error;
    } finally {
      context.signal.removeEventListener('abort', onAbort);
      release(broken);
      options.onDatabaseTime?.(dbMs);
    }
  });
}
