import * as z from 'zod/mini';

// An absolute IRI: a scheme, a colon, then no characters that RFC 3987 forbids and that would
// break out of a SPARQL `<…>` (space, controls, <>"{}|^`\).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we exclude
const absoluteIri = /^[A-Za-z][A-Za-z0-9+.-]*:[^\u0000-\u0020<>"{}|^`\\]*$/;

/**
 * True when `value` is an absolute IRI that can be written as a SPARQL `<…>` term.
 *
 * @example
 * isAbsoluteIri('https://example.org/concept/1'); // true
 * isAbsoluteIri('concept/1'); // false
 */
export function isAbsoluteIri(value: string): boolean {
  return absoluteIri.test(value);
}

/**
 * zod schema of an absolute IRI (see {@link isAbsoluteIri}).
 *
 * @example
 * IriSchema.safeParse('urn:isbn:0451450523').success; // true
 */
export const IriSchema = z.string().check(z.regex(absoluteIri, 'must be an absolute IRI'));
