import { ToolInputError } from './tool-errors';

/**
 * Opaque cursors of paged tool results. A cursor is the base64url of `{ o: offset, q: key }`, where
 * the key identifies the request it continues (a cursor of another request is refused).
 *
 * @example
 * const next = encodeCursor(20, 'orders|production');
 * decodeCursor(next, 'orders|production'); // 20
 */
export function encodeCursor(offset: number, key: string): string {
  return Buffer.from(JSON.stringify({ o: offset, q: key }), 'utf8').toString('base64url');
}

/** The offset a cursor stands for; 0 when there is none. Throws `ToolInputError` on a bad one. */
export function decodeCursor(cursor: string | undefined, key: string): number {
  if (cursor === undefined) return 0;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (
      typeof value === 'object' &&
      value !== null &&
      Number.isSafeInteger((value as { o: unknown }).o) &&
      (value as { o: number }).o >= 0 &&
      (value as { q: unknown }).q === key
    ) {
      return (value as { o: number }).o;
    }
  } catch {
    // fall through
  }
  throw new ToolInputError(
    'The cursor is not one this tool issued for these arguments; repeat the call without a cursor',
  );
}

/** Bytes of a value as JSON (UTF-8). */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/**
 * The largest prefix of `items` whose answer (built by `build`) fits in `maxBytes`, found by binary
 * search. `count` is how many items fit; 0 when even one does not. `json` is the answer as JSON,
 * serialized once here so that the tool result can reuse it (see `toolResult`).
 *
 * @example
 * const { count, answer, json } = fitItems(rows, (some) => ({ rows: some }), 65_536);
 */
export function fitItems<T, R>(
  items: readonly T[],
  build: (items: readonly T[]) => R,
  maxBytes: number,
): { count: number; answer: R; json: string } {
  const fits = (count: number) => {
    const answer = build(count === items.length ? items : items.slice(0, count));
    const json = JSON.stringify(answer);
    return Buffer.byteLength(json, 'utf8') <= maxBytes ? { count, answer, json } : undefined;
  };
  const whole = fits(items.length);
  if (whole) return whole;
  let best: { count: number; answer: R; json: string } | undefined;
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const fitted = fits(middle);
    if (fitted) {
      low = middle;
      best = fitted;
    } else high = middle - 1;
  }
  if (best) return best;
  const answer = build([]);
  return { count: 0, answer, json: JSON.stringify(answer) };
}
