import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { root } from './packed-packages.testkit';

// The fenced code blocks of the workspace's READMEs and what each one is, by the convention of
// CONTRIBUTING.md ("README code blocks"): the info string says the language, an HTML comment on the
// lines right before the fence may say more.

export type BlockKind = 'example' | 'shell' | 'config' | 'output' | 'not-runnable';

export interface ReadmeBlock {
  /** The README, relative to the workspace root. */
  readme: string;
  /** The folder of the README (a package, an app, or the root). */
  dir: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  kind: BlockKind;
  /** `<!-- not-runnable: reason -->` */
  reason?: string;
  /** `<!-- example-continues -->`: appended to the previous example of the same README. */
  continues: boolean;
  /** What an unknown info string or a malformed marker was, if any. */
  problem?: string;
}

const EXAMPLE = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs']);
const SHELL = new Set(['sh', 'bash', 'shell']);
const CONFIG = new Set(['json', 'jsonl', 'yaml', 'yml']);
const OUTPUT = new Set(['', 'text']);

/** The READMEs: the root one and that of every package and app. */
export function readmeFiles(): string[] {
  const inside = (folder: string) =>
    readdirSync(join(root, folder))
      .map((name) => join(folder, name, 'README.md'))
      .filter((file) => {
        try {
          readFileSync(join(root, file));
          return true;
        } catch {
          return false;
        }
      });
  return ['README.md', ...inside('packages'), ...inside('apps')];
}

/** The HTML comments on the lines right before line `index` (blank lines end the run). */
function markersBefore(lines: string[], index: number): string[] {
  const markers: string[] = [];
  for (let i = index - 1; i >= 0; i--) {
    const match = /^\s*<!--\s*(.*?)\s*-->\s*$/.exec(lines[i] ?? '');
    if (!match) break;
    markers.unshift(match[1] ?? '');
  }
  return markers;
}

export function readmeBlocks(readme: string): ReadmeBlock[] {
  const lines = readFileSync(join(root, readme), 'utf8').split('\n');
  const blocks: ReadmeBlock[] = [];
  let open: { index: number; indent: number; fence: string; info: string } | undefined;
  for (const [index, text] of lines.entries()) {
    const fence = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(text);
    if (!fence) continue;
    const [, indent = '', marks = '', info = ''] = fence;
    if (!open) {
      open = { index, indent: indent.length, fence: marks, info: info.trim() };
      continue;
    }
    if (!marks.startsWith(open.fence) || info.trim() !== '') continue;
    const body = lines
      .slice(open.index + 1, index)
      .map((line) => line.slice(Math.min(open?.indent ?? 0, /^\s*/.exec(line)?.[0].length ?? 0)))
      .join('\n');
    blocks.push(classify(readme, lines, open.index, open.info, `${body}\n`));
    open = undefined;
  }
  return blocks;
}

function classify(
  readme: string,
  lines: string[],
  index: number,
  info: string,
  code: string,
): ReadmeBlock {
  const lang = info.split(/\s+/)[0] ?? '';
  const block: ReadmeBlock = {
    readme,
    dir: join(root, dirname(readme)),
    line: index + 1,
    lang,
    code,
    kind: 'output',
    continues: false,
  };
  for (const marker of markersBefore(lines, index)) {
    const notRunnable = /^not-runnable:\s*(.*)$/.exec(marker);
    if (notRunnable) {
      block.reason = notRunnable[1]?.trim() ?? '';
      if (!block.reason) block.problem = '<!-- not-runnable: … --> needs a reason';
    } else if (marker === 'example-continues') block.continues = true;
  }
  if (block.reason !== undefined) block.kind = 'not-runnable';
  else if (EXAMPLE.has(lang)) block.kind = 'example';
  else if (SHELL.has(lang)) block.kind = 'shell';
  else if (CONFIG.has(lang)) block.kind = 'config';
  else if (OUTPUT.has(lang)) block.kind = 'output';
  else block.problem = `unknown info string "${info}" (see CONTRIBUTING.md, README code blocks)`;
  return block;
}

/** `packages/kg-client/README.md:24` */
export const where = (block: ReadmeBlock) => `${block.readme}:${block.line}`;

/** A short name for a folder of its own. */
export const slug = (block: ReadmeBlock) =>
  `${relative(root, block.dir).replace(/[^a-z0-9]+/gi, '-') || 'root'}-${block.line}`;

/**
 * The commands of a shell block: continuation lines joined, comments and blank lines dropped,
 * leading `NAME=value` assignments removed.
 */
export function shellCommands(code: string): { env: string[]; argv: string[]; text: string }[] {
  const joined = code.replace(/\\\n\s*/g, ' ');
  const commands: { env: string[]; argv: string[]; text: string }[] = [];
  for (const raw of joined.split('\n')) {
    const text = stripComment(raw).trim();
    if (text === '') continue;
    const words = splitWords(text);
    const env: string[] = [];
    while (words[0] && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) env.push(words.shift() as string);
    commands.push({ env, argv: words, text });
  }
  return commands;
}

function stripComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) return line.slice(0, i);
  }
  return line;
}

function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) {
    words.push(match[1] ?? match[2] ?? match[3] ?? '');
  }
  return words;
}
