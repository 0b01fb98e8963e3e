/**
 * One page of a list, in the `{ data, meta: { pagination } }` form of the governance API.
 *
 * @example
 * const page: Page<string> = { data: ['a'], meta: { pagination: { limit: 10, offset: 0, total: 1 } } };
 */
export interface Page<T> {
  data: T[];
  meta: { pagination: { limit: number; offset: number; total: number } };
}
