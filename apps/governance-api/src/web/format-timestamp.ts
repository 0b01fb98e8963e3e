import { type Markup, markup } from './markup';

/**
 * An ISO timestamp as a `<time>` element showing UTC to the minute (or the second), so every reader sees the same
 * moment regardless of the server's time zone. Unparseable input is shown as given.
 *
 * @example
 * formatTimestamp('2026-11-22T10:05:09.000Z'); // <time datetime="2026-11-22T10:05:09.000Z">2026-11-22 10:05 UTC</time>
 */
export function formatTimestamp(iso: string, options: { seconds?: boolean } = {}): Markup {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return markup`<time>${iso}</time>`;
  const time = date.toISOString().slice(11, options.seconds ? 19 : 16);
  const text = `${date.toISOString().slice(0, 10)} ${time} UTC`;
  return markup`<time datetime="${date.toISOString()}">${text}</time>`;
}
