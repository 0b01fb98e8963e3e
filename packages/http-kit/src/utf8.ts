// No imports: the published dcg-kg CLI bundles this module alone (`@dcg/http-kit/utf8`).
/** Result of {@link decodeUtf8}: the text, or the offset of the first byte that is not UTF-8. */
export type DecodeUtf8Result =
  | { success: true; text: string }
  | { success: false; byteOffset: number };

const fatal = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes UTF-8 strictly: invalid bytes are refused with the 0-based offset of the first one,
 * never replaced with U+FFFD (a replaced byte would silently change an IRI or a literal).
 * A leading byte order mark is dropped.
 *
 * @example
 * decodeUtf8(new Uint8Array([0x61, 0xff])); // { success: false, byteOffset: 1 }
 */
export function decodeUtf8(bytes: Uint8Array): DecodeUtf8Result {
  try {
    return { success: true, text: fatal.decode(bytes) };
  } catch {
    return { success: false, byteOffset: firstInvalidByte(bytes) };
  }
}

/** Bytes decoded between two turns of the event loop by {@link decodeUtf8InSteps}. */
const STEP = 1024 * 1024;

// Later steps keep a U+FEFF they begin with: only the document's first character may be a BOM.
const fatalKeepingBom = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * {@link decodeUtf8} in steps of about 1 MiB with the event loop turning between them: decoding a
 * large upload in one call held it for a few hundred ms (60 MB). Each step ends on a character
 * boundary and is decoded on its own (not in streaming mode, whose strings take two bytes a
 * character even for ASCII: twice the memory, here and in the parsing worker).
 *
 * @example
 * const decoded = await decodeUtf8InSteps(new Uint8Array(await request.arrayBuffer()));
 */
export async function decodeUtf8InSteps(bytes: Uint8Array): Promise<DecodeUtf8Result> {
  if (bytes.length <= STEP) return decodeUtf8(bytes);
  const pieces: string[] = [];
  try {
    for (let at = 0; at < bytes.length; ) {
      if (at > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      let end = Math.min(bytes.length, at + STEP);
      // Back to the first byte of a character (continuation bytes are 10xxxxxx; at most 3).
      for (
        let k = 0;
        k < 3 && end < bytes.length && ((bytes[end] as number) & 0xc0) === 0x80;
        k++
      ) {
        end--;
      }
      pieces.push((at === 0 ? fatal : fatalKeepingBom).decode(bytes.subarray(at, end)));
      at = end;
    }
  } catch {
    return { success: false, byteOffset: firstInvalidByte(bytes) };
  }
  return { success: true, text: pieces.join('') };
}

/** Offset of the first byte that starts no valid UTF-8 sequence (RFC 3629), or `bytes.length`. */
function firstInvalidByte(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let length: number;
    let min = 0x80;
    let max = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) min = 0xa0;
      else if (b === 0xed) max = 0x9f; // no surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) min = 0x90;
      else if (b === 0xf4) max = 0x8f;
    } else return i;
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k];
      if (c === undefined) return i;
      const lo = k === 1 ? min : 0x80;
      const hi = k === 1 ? max : 0xbf;
      if (c < lo || c > hi) return i;
    }
    i += length;
  }
  return n;
}
