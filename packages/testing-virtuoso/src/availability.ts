import { access, constants } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';

/** Where the Debian package `virtuoso-opensource` puts its programs and default configuration. */
export const virtuosoDefaults = {
  virtuosoBin: 'virtuoso-t',
  isqlBin: 'isql-vt',
  iniTemplate: '/etc/virtuoso-opensource-7/virtuoso.ini',
} as const;

/** Why Virtuoso can or cannot run here. */
export type VirtuosoAvailability = { available: true } | { available: false; reason: string };

/**
 * Checks that `virtuoso-t`, `isql-vt` and the template virtuoso.ini are present, so a test suite
 * can skip with a visible message instead of failing on a machine without Virtuoso. When the run
 * requires Virtuoso (`DCG_REQUIRE_VIRTUOSO=1`, set by `.ci/run`, or `CI=true`) its absence throws
 * instead, so CI never passes by skipping the upstream tests.
 *
 * @example
 * const availability = await isVirtuosoAvailable();
 * if (!availability.available) console.warn(`skipping Virtuoso tests: ${availability.reason}`);
 * describe.skipIf(!availability.available)('against Virtuoso', () => { ... });
 */
export async function isVirtuosoAvailable(
  options: { virtuosoBin?: string; isqlBin?: string; iniTemplate?: string } = {},
): Promise<VirtuosoAvailability> {
  const availability = await checkVirtuoso(options);
  if (!availability.available && virtuosoRequired()) {
    throw new Error(
      `Virtuoso is required here (DCG_REQUIRE_VIRTUOSO=1 or CI=true): ${availability.reason}; run scripts/ensure-system.sh`,
    );
  }
  return availability;
}

function virtuosoRequired(): boolean {
  return process.env.DCG_REQUIRE_VIRTUOSO === '1' || process.env.CI === 'true';
}

async function checkVirtuoso(options: {
  virtuosoBin?: string;
  isqlBin?: string;
  iniTemplate?: string;
}): Promise<VirtuosoAvailability> {
  const virtuosoBin = options.virtuosoBin ?? virtuosoDefaults.virtuosoBin;
  const isqlBin = options.isqlBin ?? virtuosoDefaults.isqlBin;
  const iniTemplate = options.iniTemplate ?? virtuosoDefaults.iniTemplate;
  for (const bin of [virtuosoBin, isqlBin]) {
    if ((await findExecutable(bin)) === undefined) {
      return {
        available: false,
        reason: `${bin} not found or not executable (apt-get install virtuoso-opensource)`,
      };
    }
  }
  try {
    await access(iniTemplate, constants.R_OK);
  } catch {
    return { available: false, reason: `template ${iniTemplate} is not readable` };
  }
  return { available: true };
}

/** Resolves a program name through PATH (or checks an explicit path) without running it. */
export async function findExecutable(bin: string): Promise<string | undefined> {
  const candidates =
    isAbsolute(bin) || bin.includes('/')
      ? [bin]
      : (process.env.PATH ?? '')
          .split(delimiter)
          .filter(Boolean)
          .map((dir) => join(dir, bin));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory: try the next one
    }
  }
  return undefined;
}
