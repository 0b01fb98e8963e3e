import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { conceptsFor, thesaurusChunks } from './thesaurus';

/**
 * Writes the thesaurus of about `triples` triples to `file` as N-Triples, chunk by chunk with
 * back-pressure; resolves with its size and number of concepts.
 */
export async function writeThesaurusFile(
  triples: number,
  file: string,
): Promise<{ bytes: number; concepts: number }> {
  const concepts = conceptsFor(triples);
  const out = createWriteStream(file);
  for (const chunk of thesaurusChunks(concepts)) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return { bytes: (await stat(file)).size, concepts };
}

/** The lines of an N-Triples file in chunks of whole lines (a parser per chunk may take each). */
export async function* fileChunks(file: string): AsyncGenerator<string> {
  let rest = '';
  for await (const piece of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const text = rest + (piece as string);
    const end = text.lastIndexOf('\n') + 1;
    rest = text.slice(end);
    if (end > 0) yield text.slice(0, end);
  }
  if (rest.length > 0) yield rest;
}
