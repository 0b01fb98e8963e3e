/**
 * Writes the benchmark's thesaurus-shaped graph (see `thesaurus.ts`) as an N-Triples file,
 * streamed: a 10M-triple graph (over 1 GB of text) is never a string in memory.
 *
 *   node --import tsx bench/generate-thesaurus.ts 10000000 /tmp/thesaurus-10m.nt
 */
import { writeThesaurusFile } from './thesaurus-file';

const [triples, file] = process.argv.slice(2);
if (!triples || !file || !Number.isSafeInteger(Number(triples)))
  throw new Error('usage: generate-thesaurus.ts <triples> <file.nt>');
const started = performance.now();
const { bytes, concepts } = await writeThesaurusFile(Number(triples), file);
console.log(
  `${file}: ${concepts.toLocaleString('en')} concepts, ${(bytes / 2 ** 20).toFixed(0)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
