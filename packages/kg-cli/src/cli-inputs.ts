import { stat } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve } from 'node:path';
import { rdfFormatFromFileName } from '@dcg/knowledge-graph';
import { glob, isDynamicPattern } from 'tinyglobby';

/** Why the arguments name no file to upload (reported as is, nothing is read or sent). */
export class InputsError extends Error {}

/**
 * The files that `dcg-kg ingest` arguments name, sorted and without repeats: a file as is; a
 * directory: every file under it (recursively, hidden ones left out) whose extension is an RDF
 * format; a glob pattern (`'vocab/**\/*.ttl'`, quoted so the CLI expands it, as on Windows).
 * A directory or pattern that yields nothing, or a path that does not exist, is an error.
 *
 * @example
 * await expandInputs(['thesaurus/', 'extra/*.nt'], process.cwd()); // ['/…/thesaurus/a.ttl', '/…/extra/b.nt']
 */
export async function expandInputs(args: readonly string[], cwd: string): Promise<string[]> {
  const files = new Set<string>();
  for (const arg of args) {
    const path = resolve(cwd, arg);
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile()) {
      files.add(path);
      continue;
    }
    let found: string[];
    if (info?.isDirectory()) {
      found = (
        await glob('**/*', { cwd: path, absolute: true, onlyFiles: true, dot: false })
      ).filter((file) => rdfFormatFromFileName(file) !== undefined);
      if (found.length === 0) {
        throw new InputsError(
          `${arg}: the directory holds no RDF file (.ttl, .nt, .nq, .trig, .jsonld, .rdf, .owl…)`,
        );
      }
    } else if (isDynamicPattern(arg)) {
      found = await glob(arg, { cwd, absolute: true, onlyFiles: true, expandDirectories: false });
      if (found.length === 0) throw new InputsError(`${arg}: the pattern matches no file`);
    } else {
      throw new InputsError(`cannot read ${arg}: no such file or directory`);
    }
    for (const file of found) files.add(resolve(file));
  }
  return [...files].sort();
}

/**
 * How a file is named: relative to where the command was typed when below it (`name` for
 * messages, `path` for GitHub annotations); else its base name in messages and its full path.
 *
 * @example
 * fileNames('/work/vocab/a.ttl', '/work'); // { name: 'vocab/a.ttl', path: 'vocab/a.ttl' }
 */
export function fileNames(file: string, cwd: string): { name: string; path: string } {
  const rel = relative(cwd, file);
  if (rel && !rel.startsWith('..') && !isAbsolute(rel)) return { name: rel, path: rel };
  return { name: basename(file), path: file };
}
