/**
 * Small integer ids of environment names, so that the indexes keep one Int32Array of
 * environments per row and compare integers while scanning.
 *
 * @example
 * const ids = new EnvironmentIds();
 * ids.idOf('production'); // 0
 * ids.find('staging'); // undefined
 */
export class EnvironmentIds {
  private readonly ids = new Map<string, number>();

  /** The id of the environment, given one when new. */
  idOf(environment: string): number {
    let id = this.ids.get(environment);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(environment, id);
    }
    return id;
  }

  /** The id of a known environment, or undefined. */
  find(environment: string): number | undefined {
    return this.ids.get(environment);
  }
}
