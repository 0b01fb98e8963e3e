import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The kinds of document the CLI validates, and the JSON Schema each one maps to. */
export const KIND_SCHEMAS = {
  details: 'result-details',
  submission: 'evaluation-result-submission',
  template: 'infrastructure-template',
  descriptor: 'system-descriptor',
} as const;
export type CorpusKind = keyof typeof KIND_SCHEMAS;

/** One case of the shared corpus (`__fixtures__/corpus/manifest.json`). */
export interface CorpusCase {
  file: string;
  kind: CorpusKind;
  rule: string;
  valid: boolean;
  errors?: Array<{ path: string; message: string }>;
  targets?: Array<{ resourceId: string; resultKeys: string[] }>;
  /** Set when draft-07 cannot state the rule: ajv is expected to accept the document. */
  jsonSchemaLimitation?: string;
}

/** Folder of the corpus files. */
export const CORPUS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'corpus');

/**
 * The corpus cases with their absolute file paths.
 *
 * @example
 * for (const c of loadCorpus()) console.log(c.file, c.valid);
 */
export function loadCorpus(): Array<CorpusCase & { path: string; text: string }> {
  const manifest = JSON.parse(readFileSync(join(CORPUS_DIR, 'manifest.json'), 'utf8')) as {
    cases: CorpusCase[];
  };
  return manifest.cases.map((c) => {
    const path = join(CORPUS_DIR, c.file);
    return { ...c, path, text: readFileSync(path, 'utf8') };
  });
}

/**
 * Every document file under the corpus folder, relative to it (the manifest excluded).
 *
 * @example
 * listCorpusFiles(); // ['descriptor/a5-distributed.yaml', …]
 */
export function listCorpusFiles(): string[] {
  const files: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name !== 'manifest.json') files.push(relative(CORPUS_DIR, full));
    }
  };
  walk(CORPUS_DIR);
  return files.sort();
}
