import type { GraphPersistence } from './graph-persistence';

/**
 * Copies into `to` the graphs of configured sources that `from` holds and `to` does not (moving
 * a deployment's graphs from its data folder to PostgreSQL the first time it is configured);
 * graphs `to` already holds are left alone. Resolves with the ids copied.
 *
 * @example
 * await importMissingGraphs(new FileGraphPersistence(dataDir), postgres, sourceIds);
 */
export async function importMissingGraphs(
  from: GraphPersistence,
  to: GraphPersistence,
  sourceIds: readonly string[],
): Promise<string[]> {
  const present = await to.generations();
  const available = await from.generations();
  const copied: string[] = [];
  for (const sourceId of sourceIds) {
    if (present.has(sourceId) || !available.has(sourceId)) continue;
    const stored = await from.load(sourceId);
    if (stored === undefined) continue;
    await to.save(sourceId, stored.store);
    copied.push(sourceId);
  }
  return copied;
}
