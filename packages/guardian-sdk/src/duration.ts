const UNITS: Record<string, number> = {
  ms: 1,
  millisecond: 1,
  milliseconds: 1,
  s: 1000,
  sec: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  mins: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  hrs: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000,
  w: 604_800_000,
  week: 604_800_000,
  weeks: 604_800_000,
};

const ISO =
  /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;
const PLAIN = /^(\d+(?:\.\d+)?)\s*([a-z]+)$/i;

/**
 * Milliseconds of a duration as contracts write it: `2 hours`, `30m`, `1 day`, `PT2H`, or a
 * number with a separate unit (ODCS `value` + `unit`). `undefined` when it cannot be read.
 *
 * @example
 * parseDuration('2 hours'); // 7200000
 * parseDuration(4, 'd'); // 345600000
 */
export function parseDuration(value: unknown, unit?: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) {
    const factor = UNITS[typeof unit === 'string' ? unit.trim().toLowerCase() : 'ms'];
    return factor === undefined ? undefined : value * factor;
  }
  if (typeof value !== 'string' || value.length > 64) return undefined;
  const text = value.trim();
  const iso = ISO.exec(text);
  if (iso && text.length > 1 && text.toUpperCase() !== 'PT') {
    const [, d, h, m, s] = iso;
    return (
      Number(d ?? 0) * 86_400_000 +
      Number(h ?? 0) * 3_600_000 +
      Number(m ?? 0) * 60_000 +
      Number(s ?? 0) * 1000
    );
  }
  const plain = PLAIN.exec(text);
  if (plain) return parseDuration(Number(plain[1]), plain[2]);
  if (/^\d+(\.\d+)?$/.test(text) && typeof unit === 'string')
    return parseDuration(Number(text), unit);
  return undefined;
}

/**
 * A duration for people: `5 h 3 min`, `12 s`.
 *
 * @example
 * formatDuration(18_180_000); // '5 h 3 min'
 */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const parts: string[] = [];
  let rest = Math.round(ms / 1000);
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3600],
    ['min', 60],
    ['s', 1],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)} ${unit}`);
      rest %= size;
    }
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}
