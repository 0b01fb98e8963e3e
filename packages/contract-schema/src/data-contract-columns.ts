/**
 * How a column of a data contract declares its constraints, read the same way by the guardians
 * that check them and the pages that show them, in both dialects of `dataContract`.
 */

/** What a column declares: `required` includes a key column, `unique` is its own declaration. */
export interface DeclaredColumnFlags {
  required: boolean;
  unique: boolean;
  primaryKey: boolean;
}

/**
 * The constraints of a Witboost column (`constraint` and `constraints`, each a string or a list),
 * normalised: trimmed, upper-cased, spaces and hyphens as `_` (`not null` is `NOT_NULL`). Values
 * that are not strings are ignored.
 *
 * @example
 * witboostConstraints({ constraint: 'primary key', constraints: ['Unique'] }); // Set { 'PRIMARY_KEY', 'UNIQUE' }
 */
export function witboostConstraints(column: {
  constraint?: unknown;
  constraints?: unknown;
}): Set<string> {
  const all = [column.constraint, column.constraints].flatMap((value) =>
    Array.isArray(value) ? value : [value],
  );
  return new Set(
    all
      .filter((value): value is string => typeof value === 'string')
      .map((value) =>
        value
          .trim()
          .toUpperCase()
          .replace(/[\s-]+/g, '_'),
      ),
  );
}

/**
 * The flags of a Witboost column from its normalised constraints: `PRIMARY_KEY`, `NOT_NULL`,
 * `UNIQUE`.
 *
 * @example
 * witboostColumnFlags(witboostConstraints({ constraint: 'PRIMARY_KEY' })); // { required: true, unique: false, primaryKey: true }
 */
export function witboostColumnFlags(constraints: ReadonlySet<string>): DeclaredColumnFlags {
  const primaryKey = constraints.has('PRIMARY_KEY');
  return {
    required: primaryKey || constraints.has('NOT_NULL'),
    unique: constraints.has('UNIQUE'),
    primaryKey,
  };
}

/**
 * The flags of an ODCS property: `required`, `unique` and `primaryKey`, and the keys written
 * before ODCS v3 (`isNullable: false`, `isUnique: true`). Only `true` (or `isNullable: false`)
 * declares anything.
 *
 * @example
 * odcsColumnFlags({ name: 'id', isNullable: false }); // { required: true, unique: false, primaryKey: false }
 */
export function odcsColumnFlags(property: {
  required?: unknown;
  unique?: unknown;
  primaryKey?: unknown;
  isNullable?: unknown;
  isUnique?: unknown;
}): DeclaredColumnFlags {
  const primaryKey = property.primaryKey === true;
  return {
    required: property.required === true || property.isNullable === false || primaryKey,
    unique: property.unique === true || property.isUnique === true,
    primaryKey,
  };
}
