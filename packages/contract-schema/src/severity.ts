const NON_BLOCKING_SEVERITIES = new Set(['info', 'warning', 'warn']);

/**
 * Whether a failing requirement of this `severity` (ODCS v3 quality `severity`, kept on the A4
 * record) makes the data contract violated: every value does (`error`, `critical`, none,
 * anything unknown) except `info`, `warning` and `warn`. The one derivation, used by guardians
 * (their verdict) and by the views (their counts).
 *
 * @example
 * isBlockingSeverity('warning'); // false
 * isBlockingSeverity(undefined); // true
 */
export function isBlockingSeverity(severity: unknown): boolean {
  return !(
    typeof severity === 'string' && NON_BLOCKING_SEVERITIES.has(severity.trim().toLowerCase())
  );
}
