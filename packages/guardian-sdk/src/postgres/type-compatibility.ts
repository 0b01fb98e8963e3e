/** PostgreSQL type names (as `format_type` prints them, without modifiers) per contract type. */
const FAMILIES: Record<string, string[]> = {
  text: ['text', 'character varying', 'character', 'citext', 'uuid', 'name'],
  integer: ['smallint', 'integer', 'bigint'],
  decimal: ['numeric', 'double precision', 'real'],
  boolean: ['boolean'],
  timestamp: ['timestamp without time zone', 'timestamp with time zone'],
  date: ['date'],
  time: ['time without time zone', 'time with time zone'],
  json: ['json', 'jsonb'],
  binary: ['bytea'],
};

const CONTRACT_TYPES: Record<string, string[]> = {
  string: ['text'],
  text: ['text'],
  varchar: ['text'],
  char: ['text'],
  uuid: ['text'],
  int: ['integer'],
  integer: ['integer'],
  smallint: ['integer'],
  tinyint: ['integer'],
  bigint: ['integer'],
  long: ['integer'],
  decimal: ['decimal', 'integer'],
  numeric: ['decimal', 'integer'],
  number: ['decimal', 'integer'],
  double: ['decimal'],
  float: ['decimal'],
  real: ['decimal'],
  boolean: ['boolean'],
  bool: ['boolean'],
  timestamp: ['timestamp'],
  timestamptz: ['timestamp'],
  timestamp_ntz: ['timestamp'],
  timestamp_tz: ['timestamp'],
  datetime: ['timestamp'],
  // ODCS `logicalType: date` covers dates and date-times.
  date: ['date', 'timestamp'],
  time: ['time'],
  object: ['json'],
  record: ['json'],
  struct: ['json'],
  json: ['json'],
  map: ['json'],
  binary: ['binary'],
  bytes: ['binary'],
};

const ALIASES: Record<string, string> = {
  int: 'integer',
  int2: 'smallint',
  int4: 'integer',
  int8: 'bigint',
  float4: 'real',
  float8: 'double precision',
  bool: 'boolean',
  varchar: 'character varying',
  char: 'character',
  bpchar: 'character',
  decimal: 'numeric',
  timestamptz: 'timestamp with time zone',
  timestamp: 'timestamp without time zone',
  timetz: 'time with time zone',
  time: 'time without time zone',
};

function normalise(type: string): string {
  const text = type.trim().toLowerCase().replace(/\s+/g, ' ');
  const match = /^([a-z0-9_ ]+?)\s*(\(.*\))?(\[\])?$/.exec(text);
  if (!match) return text;
  const [, base = '', modifier = '', array = ''] = match;
  return `${ALIASES[base] ?? base}${modifier.replace(/\s+/g, '')}${array}`;
}

function baseOf(type: string): string {
  return normalise(type).replace(/\(.*\)/, '');
}

/**
 * Whether a column's PostgreSQL type (from `format_type`) satisfies the contract: the declared
 * physical type exactly (aliases such as `int4`/`integer` are equal), or else the logical type's
 * family. `undefined` when the contract names a type this table does not know (not judged).
 *
 * @example
 * isCompatibleType('numeric(10,2)', { type: 'decimal' }); // true
 * isCompatibleType('text', { type: 'decimal' }); // false
 */
export function isCompatibleType(
  actual: string,
  declared: { type?: string | undefined; physicalType?: string | undefined },
): boolean | undefined {
  if (declared.physicalType) {
    const want = normalise(declared.physicalType);
    const have = normalise(actual);
    // `numeric` without modifiers accepts any precision; otherwise compare with modifiers.
    return want.includes('(') ? want === have : baseOf(want) === baseOf(have);
  }
  if (!declared.type) return undefined;
  const families = CONTRACT_TYPES[declared.type.replace(/\(.*\)/, '').trim()];
  if (!families) return undefined;
  const have = baseOf(actual);
  if (have.endsWith('[]')) return declared.type === 'array';
  return families.some((family) => FAMILIES[family]?.includes(have));
}
