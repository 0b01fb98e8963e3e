/**
 * Small integer ids of environment names, so that the indexes keep one Int32Array of
 * environments per row and compare integers while scanning.
 *
 * @example
 * const ids = new EnvironmentIds();
 * ids.idOf('production'); // 0
 * ids.find('staging'); // undefined
 * ids.filterOf(undefined); // ANY_ENVIRONMENT: every environment
 */
export class EnvironmentIds {
  private readonly ids = new Map<string, number>();

  /** The id of the environment, given one when new. */
  idOf(environment: string): number {
    const known = this.ids.get(environment);
    if (known !== undefined) return known;
    const id = this.ids.size;
    this.ids.set(environment, id);
    return id;
  }

  /** The id of a known environment, or undefined. */
  find(environment: string): number | undefined {
    return this.ids.get(environment);
  }

  /**
   * What a search keeps: {@link ANY_ENVIRONMENT} when no environment is given, the id of a known
   * one, or {@link NO_ENVIRONMENT} (matches no row) for one never seen.
   */
  filterOf(environment: string | undefined): number {
    if (environment === undefined) return ANY_ENVIRONMENT;
    return this.ids.get(environment) ?? NO_ENVIRONMENT;
  }
}

/** The environment filter of a search over every environment. */
export const ANY_ENVIRONMENT = -1;
/** The environment filter of a search in an environment no row has. */
export const NO_ENVIRONMENT = -2;

/**
 * Whether a row of environment id `row` passes the filter `filter` (see `filterOf`).
 *
 * @example
 * inEnvironment(3, ANY_ENVIRONMENT); // true
 */
export function inEnvironment(row: number, filter: number): boolean {
  return filter === ANY_ENVIRONMENT || row === filter;
}
