import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ContractRegistry, type ContractRegistrySnapshot } from '../contract-registry';

/**
 * A {@link ContractRegistry} kept in a JSON file, so a restarted guardian keeps monitoring what
 * it was provisioned with. Each change is written to a temporary file and renamed over the old one.
 *
 * @example
 * const registry = openFileContractRegistry('.dcg-data/postgres-guardian/contracts.json');
 */
export function openFileContractRegistry(
  file: string,
  options: { defaultEnvironment?: string | undefined } = {},
): ContractRegistry {
  let snapshot: ContractRegistrySnapshot | undefined;
  try {
    snapshot = JSON.parse(readFileSync(file, 'utf8')) as ContractRegistrySnapshot;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(`cannot read the contract registry ${file}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  mkdirSync(dirname(file), { recursive: true });
  return new ContractRegistry({
    ...options,
    ...(snapshot ? { snapshot } : {}),
    onChange: (next) => {
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(next));
      renameSync(temporary, file);
    },
  });
}
