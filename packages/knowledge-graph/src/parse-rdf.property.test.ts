import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRdf } from './parse-rdf';

// Documents of simple triples with random indentation, blank lines and CRLF, one of which has a
// misplaced "]": wherever the parser's chunks fall, the error is reported at that character.
const document = fc
  .record({
    lines: fc.array(
      fc.record({
        indent: fc.constantFrom('', ' ', '  ', '\t', '    '),
        blankBefore: fc.boolean(),
        crlf: fc.boolean(),
      }),
      { minLength: 1, maxLength: 40 },
    ),
    badAt: fc.nat(),
    badIndent: fc.constantFrom('', '  ', '\t '),
    chunkSize: fc.integer({ min: 1, max: 300 }),
    format: fc.constantFrom('turtle' as const, 'n-triples' as const, 'trig' as const),
  })
  .map(({ lines, badAt, badIndent, chunkSize, format }) => {
    const bad = badAt % lines.length;
    let text = '';
    let lineNo = 1;
    let expected = { line: 0, column: 0 };
    lines.forEach((l, i) => {
      const eol = l.crlf ? '\r\n' : '\n';
      if (l.blankBefore) {
        text += eol;
        lineNo++;
      }
      if (i === bad) {
        const prefix = `${badIndent}<urn:s${i}> <urn:p> `;
        expected = { line: lineNo, column: prefix.length + 1 };
        text += `${prefix}] .${eol}`;
      } else {
        text += `${l.indent}<urn:s${i}> <urn:p> "value ${i}" .${eol}`;
      }
      lineNo++;
    });
    return { text, expected, chunkSize, format };
  });

describe('parseRdf error locations', () => {
  it('are exact whatever the chunking', async () => {
    await fc.assert(
      fc.asyncProperty(document, async ({ text, expected, chunkSize, format }) => {
        const parsed = await parseRdf(text, format, { chunkSize });
        expect(parsed.success).toBe(false);
        if (parsed.success) return;
        expect({ line: parsed.issues[0]?.line, column: parsed.issues[0]?.column }).toEqual(
          expected,
        );
      }),
      { numRuns: 200 },
    );
  });
});
