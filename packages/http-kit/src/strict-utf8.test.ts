import { describe, expect, it } from 'vitest';
import { ProblemError } from './problem';
import { strictUtf8 } from './strict-utf8';
import { decodeUtf8, decodeUtf8InSteps } from './utf8';

describe('decodeUtf8', () => {
  it.each([
    [[0x61, 0xff], 1],
    [[0x61, 0x62, 0xc3], 2], // truncated sequence
    [[0xc0, 0xaf], 0], // overlong
    [[0x61, 0xed, 0xa0, 0x80], 1], // surrogate
    [[0xf4, 0x90, 0x80, 0x80], 0], // above U+10FFFF
    [[0xe2, 0x82, 0xac, 0x80], 3], // lone continuation byte
  ])('refuses %j at byte %i', (bytes, offset) => {
    expect(decodeUtf8(new Uint8Array(bytes))).toEqual({ success: false, byteOffset: offset });
  });

  it('decodes valid UTF-8, dropping a byte order mark', () => {
    const bytes = new TextEncoder().encode('\uFEFF<urn:é> "€𝄞" .');
    expect(decodeUtf8(bytes)).toEqual({ success: true, text: '<urn:é> "€𝄞" .' });
  });

  it('decodes in steps as in one go: sequences across step borders, the offset of a bad byte far in', async () => {
    // 3 MiB of four-byte characters shifted by one byte, so that steps cut sequences.
    const text = `\uFEFFa${'𝄞é€'.repeat(350_000)}`;
    const bytes = new TextEncoder().encode(text);
    expect(await decodeUtf8InSteps(bytes)).toEqual({ success: true, text: text.slice(1) });
    const bad = bytes.slice();
    bad[2_500_001] = 0xff;
    const offset = decodeUtf8(bad);
    expect(offset.success).toBe(false);
    expect(await decodeUtf8InSteps(bad)).toEqual(offset);
    // A U+FEFF that begins a later step is text, not a byte order mark.
    const zwnbsp = `${'a'.repeat(1024 * 1024)}\uFEFFb`;
    expect(await decodeUtf8InSteps(new TextEncoder().encode(zwnbsp))).toEqual({
      success: true,
      text: zwnbsp,
    });
    // The end cut inside a sequence is refused too.
    expect(await decodeUtf8InSteps(bytes.subarray(0, bytes.length - 1))).toMatchObject({
      success: false,
    });
  });
});

describe('strictUtf8', () => {
  it('throws a 400 problem with the byte offset and the path', () => {
    try {
      strictUtf8(new Uint8Array([0x7b, 0x22, 0xff]), 'body', {
        type: 'https://example.org/invalid_utf8',
      });
      expect.unreachable();
    } catch (error) {
      expect(ProblemError.isInstance(error)).toBe(true);
      expect((error as ProblemError).problem).toMatchObject({
        type: 'https://example.org/invalid_utf8',
        status: 400,
        byteOffset: 2,
        errors: [{ path: '$.body', message: 'invalid UTF-8 at byte 2', code: 'invalid_utf8' }],
      });
    }
  });
});
