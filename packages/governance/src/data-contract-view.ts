import {
  type DeclaredColumnFlags,
  describeThreshold,
  odcsColumnFlags,
  THRESHOLD_OPERATORS,
  witboostColumnFlags,
  witboostConstraints,
} from '@dcg/contract-schema';

/** A column of a data contract as a reader sees it. */
export interface DataContractColumnView {
  name: string;
  /** Declared type (`dataType`, ODCS `logicalType` or `physicalType`), as written. */
  type?: string;
  /** Declared required (not null), or part of the key: as the guardians read it. */
  required: boolean;
  /** Its values are unique: declared unique, or the key. */
  unique: boolean;
  primaryKey: boolean;
  description?: string;
  /** The model (table) of the column, for ODCS contracts with several. */
  model?: string;
}

/** A quality rule of a data contract, in words. */
export interface DataContractRuleView {
  /** What the rule says (its name, else its metric or rule with the threshold). */
  text: string;
  /** The column it is declared on, when it is declared on one. */
  column?: string;
  description?: string;
  severity?: string;
}

/** The contract itself: its schema, quality rules and service levels, from `dataContract`. */
export interface DataContractView {
  columns: DataContractColumnView[];
  quality: DataContractRuleView[];
  /** Service levels (`SLA` of Witboost, `slaProperties` of ODCS) as label and value. */
  sla: Array<{ name: string; value: string }>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;
const show = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));

function ruleView(rule: unknown, column?: string): DataContractRuleView | undefined {
  if (!isObject(rule)) return undefined;
  const threshold = THRESHOLD_OPERATORS.filter((operator) => rule[operator] !== undefined)
    .map((operator) => describeThreshold({ operator, value: rule[operator] }))
    .join(', ');
  const what = str(rule.name) ?? str(rule.metric) ?? str(rule.rule) ?? str(rule.type) ?? 'rule';
  const text =
    threshold === '' ? what : `${what}: ${threshold}${rule.unit === 'percent' ? ' %' : ''}`;
  const description = str(rule.description);
  const severity = str(rule.severity);
  return {
    text,
    ...(column === undefined ? {} : { column }),
    ...(description === undefined ? {} : { description }),
    ...(severity === undefined ? {} : { severity }),
  };
}

/** A column as shown, in either dialect: its values are unique when declared so or the key. */
function columnView(
  name: string,
  type: string | undefined,
  { required, unique, primaryKey }: DeclaredColumnFlags,
  column: Record<string, unknown>,
  model?: string,
): DataContractColumnView {
  const description = str(column.description);
  return {
    name,
    ...(type === undefined ? {} : { type }),
    required,
    unique: unique || primaryKey,
    primaryKey,
    ...(description === undefined ? {} : { description }),
    ...(model === undefined ? {} : { model }),
  };
}

/**
 * The contract of a data contract component as a reader sees it, from its `dataContract` in either
 * dialect: Witboost (`schema[]` of columns with `dataType` and `constraint` PRIMARY_KEY / NOT_NULL /
 * UNIQUE, `SLA`) or ODCS (`schema[]` of objects with `properties[]`, `required`, `unique`,
 * `primaryKey`, `quality[]` on objects and properties, `slaProperties[]`). Undefined without one.
 * Constraints are read by `@dcg/contract-schema`'s column rules, as the guardians read them.
 *
 * @example
 * dataContractView({ schema: [{ name: 'id', dataType: 'string', constraint: 'PRIMARY_KEY' }] })?.columns[0];
 * // { name: 'id', type: 'string', required: true, unique: true, primaryKey: true }
 */
export function dataContractView(dataContract: unknown): DataContractView | undefined {
  if (!isObject(dataContract)) return undefined;
  const columns: DataContractColumnView[] = [];
  const quality: DataContractRuleView[] = [];
  const schema = Array.isArray(dataContract.schema) ? dataContract.schema : [];
  for (const entry of schema) {
    if (!isObject(entry)) continue;
    if (Array.isArray(entry.properties)) {
      // ODCS: an object (table) with properties (columns).
      const model = str(entry.name);
      for (const property of entry.properties) {
        if (!isObject(property) || str(property.name) === undefined) continue;
        const name = property.name as string;
        const type = str(property.logicalType) ?? str(property.physicalType);
        columns.push(columnView(name, type, odcsColumnFlags(property), property, model));
        for (const rule of Array.isArray(property.quality) ? property.quality : []) {
          const view = ruleView(rule, name);
          if (view) quality.push(view);
        }
      }
      for (const rule of Array.isArray(entry.quality) ? entry.quality : []) {
        const view = ruleView(rule);
        if (view) quality.push(view);
      }
      continue;
    }
    const name = str(entry.name);
    if (name === undefined) continue;
    const flags = witboostColumnFlags(witboostConstraints(entry));
    columns.push(columnView(name, str(entry.dataType), flags, entry));
  }
  for (const rule of Array.isArray(dataContract.quality) ? dataContract.quality : []) {
    const view = ruleView(rule);
    if (view) quality.push(view);
  }
  const sla: DataContractView['sla'] = [];
  if (isObject(dataContract.SLA)) {
    for (const [name, value] of Object.entries(dataContract.SLA)) {
      if (value !== undefined && value !== null) sla.push({ name, value: show(value) });
    }
  }
  for (const entry of Array.isArray(dataContract.slaProperties) ? dataContract.slaProperties : []) {
    if (!isObject(entry) || str(entry.property) === undefined) continue;
    const unit = str(entry.unit);
    const element = str(entry.element);
    sla.push({
      name: element === undefined ? (entry.property as string) : `${entry.property} (${element})`,
      value: `${show(entry.value)}${unit === undefined ? '' : ` ${unit}`}`,
    });
  }
  return { columns, quality, sla };
}

/**
 * The column a requirement of a result is about, when its key or name says so: the key is the
 * column or starts with `<column>_` (as the reference guardian names them: `amount_not_null`), or
 * the name starts with the column and a space (`amount is never null`). The longest column wins.
 *
 * @example
 * requirementColumn({ key: 'amount_not_null' }, ['amount', 'id']); // 'amount'
 */
export function requirementColumn(
  requirement: { key: string; name?: string | undefined },
  columns: readonly string[],
): string | undefined {
  const matches = columns.filter(
    (column) =>
      requirement.key === column ||
      requirement.key.startsWith(`${column}_`) ||
      requirement.name === column ||
      (requirement.name?.startsWith(`${column} `) ?? false),
  );
  return matches.sort((a, b) => b.length - a.length)[0];
}
