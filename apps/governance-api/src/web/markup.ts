import { html, raw } from 'hono/html';

/** Escaped HTML: what `markup` returns and what it inserts without escaping again. */
export type Markup = Awaited<ReturnType<typeof html>>;

/**
 * Tagged template that escapes every interpolated value (strings, numbers, arrays of either)
 * except nested `Markup`, and always answers synchronously. Hono's `html` may return a promise
 * when a value is one; the pages never interpolate promises, so one would be a programming error.
 *
 * @example
 * const item = markup`<li>${userInput}</li>`; // `<script>` in userInput becomes `&lt;script&gt;`
 */
export function markup(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  const out = html(strings, ...values);
  if (out instanceof Promise) {
    throw new TypeError('markup: a promise was interpolated; resolve data before rendering');
  }
  return out;
}

/**
 * Trusted, already-escaped HTML (a constant of this module's own pages, never data).
 *
 * @example
 * const css = trusted('<style>body{margin:0}</style>');
 */
export function trusted(value: string): Markup {
  return raw(value);
}
