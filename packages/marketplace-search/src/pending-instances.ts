/**
 * The instances waiting for an embedding (keys `environment\0systemId`), with a count per
 * environment kept as they come and go: a search reports its environment's pending count without
 * walking every pending key (thousands during a rebuild).
 *
 * @example
 * const pending = new PendingInstances();
 * pending.add('production\u0000urn:dmb:dp:a:b:0');
 * pending.countIn('production'); // 1
 */
export class PendingInstances implements Iterable<string> {
  private readonly keys = new Set<string>();
  private readonly perEnvironment = new Map<string, number>();

  get size(): number {
    return this.keys.size;
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  add(key: string): void {
    if (this.keys.has(key)) return;
    this.keys.add(key);
    const env = environmentOf(key);
    this.perEnvironment.set(env, (this.perEnvironment.get(env) ?? 0) + 1);
  }

  delete(key: string): boolean {
    if (!this.keys.delete(key)) return false;
    const env = environmentOf(key);
    const left = (this.perEnvironment.get(env) ?? 1) - 1;
    if (left === 0) this.perEnvironment.delete(env);
    else this.perEnvironment.set(env, left);
    return true;
  }

  /** Pending instances of the environment, or of all when `environment` is undefined. */
  countIn(environment: string | undefined): number {
    return environment === undefined ? this.keys.size : (this.perEnvironment.get(environment) ?? 0);
  }

  [Symbol.iterator](): Iterator<string> {
    return this.keys[Symbol.iterator]();
  }
}

const environmentOf = (key: string) => key.slice(0, key.indexOf('\u0000'));
