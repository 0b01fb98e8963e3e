/** `contract_id` → `contractId`, as a type. */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/** A row with its columns under their camelCase names. */
export type CamelCased<Row> = { [Column in keyof Row & string as CamelCase<Column>]: Row[Column] };

/**
 * A row under the names of the domain shape, for tables whose columns are exactly that shape's
 * fields in snake_case. The columns keep their order, so the shape reads the same on both dialects.
 *
 * @example
 * camelCased({ contract_id: 'c', policy_id: 'p' }); // { contractId: 'c', policyId: 'p' }
 */
export function camelCased<Row extends object>(row: Row): CamelCased<Row> {
  return Object.fromEntries(
    Object.entries(row).map(([column, value]) => [
      column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
      value,
    ]),
  ) as CamelCased<Row>;
}
