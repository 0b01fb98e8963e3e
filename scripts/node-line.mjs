// Which Node.js lines are past their end of life (https://github.com/nodejs/release#release-schedule).
// `pnpm start` says so once; the packages still accept them in `engines` for consumers.

/** End of life of each LTS line (the last day it gets fixes), as published by the Node.js project. */
export const END_OF_LIFE = {
  18: '2025-04-30',
  20: '2026-04-30',
  22: '2027-04-30',
  24: '2028-04-30',
};

/** The lines this project recommends (see .nvmrc). */
export const RECOMMENDED = [22, 24];

/**
 * A one-line notice when `version` (e.g. `v20.20.2`) is past its end of life on `today`, or
 * undefined. A line older than the table is past it too; a newer one is not known to be.
 *
 * @example
 * endOfLifeNotice('v20.20.2', new Date('2026-11-27')); // 'Node.js 20 reached its end of life on 2026-04-30 …'
 */
export function endOfLifeNotice(version, today = new Date()) {
  const major = Number(/^v?(\d+)/.exec(version)?.[1]);
  if (!Number.isInteger(major)) return undefined;
  const end = END_OF_LIFE[major];
  const older = major < Math.min(...Object.keys(END_OF_LIFE).map(Number));
  if (!older && (end === undefined || today.toISOString().slice(0, 10) <= end)) return undefined;
  const when = end === undefined ? '' : ` on ${end}`;
  return `Node.js ${major} reached its end of life${when} (no more security fixes): use Node.js ${RECOMMENDED.join(' or ')} LTS (see .nvmrc)`;
}
