import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { decodeUtf8 } from '@dcg/http-kit/utf8';
import { KgClientError, type KgProblemError } from '@dcg/kg-client';
import { createSourceGraphsClient, type SourceGraphs } from '@dcg/kg-client/graphs';
import {
  mediaTypeOfRdfFormat,
  parseRdf,
  type RdfFormat,
  rdfFormatFromFileName,
  serializeGraph,
} from '@dcg/knowledge-graph';
import { rdfInWorker } from '@dcg/knowledge-graph/node';
import type { Quad } from 'n3';
import { expandInputs, fileNames } from './cli-inputs';
import { progressBar, waitingIndicator } from './progress-bar';

const USAGE = `Usage: dcg-kg ingest SOURCE FILE|DIRECTORY|GLOB... [--url URL] [--key KEY] [--format FORMAT]
       dcg-kg --help | -h | ingest --help
       dcg-kg --version

Uploads RDF files (Turtle .ttl, N-Triples .nt, N-Quads .nq, TriG .trig, JSON-LD .jsonld,
RDF/XML .rdf .owl .xml) as the whole graph of SOURCE on a running kg-api, with a progress bar.
A directory stands for every RDF file under it (recursively, by extension); a quoted glob
('vocab/**/*.ttl') is expanded by dcg-kg. Several files are uploaded together, as one graph.
Before anything is read or sent, kg-api is asked whether SOURCE exists, takes uploads, and
whether the key may write to it. Each file is then checked locally: a syntax error is reported
with its file, line and column, invalid UTF-8 with its byte, files with no triples (empty files)
are refused, and nothing is sent. While kg-api processes the upload, the time it has taken so far
is shown.

  --url     kg-api base URL (env DCG_KG_URL, default http://127.0.0.1:8081)
  --key     API key with the writer role (env DCG_KG_API_KEY)
  --format  turtle | n-triples | n-quads | trig | json-ld | rdf-xml (default: from each file's extension)

Exit codes: 0 uploaded; 1 refused (a file fails the check: syntax, UTF-8, no triples; kg-api
refuses the upload: key, source); 2 could not run (bad arguments, a file that cannot be read,
kg-api unreachable or failing).
`;

const FORMATS: readonly RdfFormat[] = [
  'turtle',
  'n-triples',
  'n-quads',
  'trig',
  'json-ld',
  'rdf-xml',
];

/**
 * Exit codes, the same in the three dcg CLIs (dcg-contract, dcg-guardian, dcg-kg): 0 done;
 * 1 refused: a file failed the local check (syntax, UTF-8, no triples) or kg-api refused the
 * upload (4xx: key, source); 2 no verdict: bad arguments, a file that cannot be read, kg-api
 * unreachable or failing (5xx).
 */
export const EXIT = { done: 0, refused: 1, couldNotRun: 2 } as const;

/** Thrown for a failure the CLI reports as a message (exit code 1 by default), without a stack. */
class CliFailure extends Error {
  constructor(
    message: string,
    /** The file and the place in it the failure is about, for GitHub annotations. */
    readonly at?: { file: string; line?: number | undefined; column?: number | undefined },
    readonly exitCode: number = EXIT.refused,
  ) {
    super(message);
  }
}

/** A failure that leaves no verdict on the files (exit code 2). */
const couldNotRun = (message: string) => new CliFailure(message, undefined, EXIT.couldNotRun);

/** A refusal of kg-api: 4xx is a verdict on the upload, 5xx says it could not be processed. */
const refusal = (status: number, message: string) =>
  status >= 500 ? couldNotRun(message) : new CliFailure(message);

/** A GitHub Actions workflow command that shows `message` on the file (and line) it is about. */
function githubAnnotation(failure: CliFailure): string {
  const escapeData = (text: string) =>
    text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const property = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
  const at = failure.at;
  const properties = [
    ...(at ? [`file=${property(at.file)}`] : []),
    ...(at?.line === undefined ? [] : [`line=${at.line}`]),
    ...(at?.column === undefined ? [] : [`col=${at.column}`]),
    'title=dcg-kg',
  ];
  return `::error ${properties.join(',')}::${escapeData(failure.message)}\n`;
}

/**
 * Runs `dcg-kg` with its arguments; resolves with the exit code.
 *
 * @example
 * process.exitCode = await runCli(['ingest', 'demo', 'vocabulary.ttl'], process.env);
 */
export async function runCli(
  argv: string[],
  env: Record<string, string | undefined>,
  io: {
    out: { write(text: string): unknown };
    err: { write(text: string): unknown; isTTY?: boolean };
  } = { out: process.stdout, err: process.stderr },
): Promise<number> {
  let parsed: ReturnType<typeof parseCliArgs>;
  try {
    parsed = parseCliArgs(argv);
  } catch (error) {
    io.err.write(`${(error as Error).message}\n\n${USAGE}`);
    return EXIT.couldNotRun;
  }
  if (parsed.command === 'usage') {
    // No arguments: the help, on stderr since nothing was done (as dcg-contract and dcg-guardian).
    io.err.write(USAGE);
    return EXIT.couldNotRun;
  }
  if (parsed.command === 'help') {
    io.out.write(USAGE);
    return 0;
  }
  if (parsed.command === 'version') {
    const { version } = createRequire(import.meta.url)('../package.json') as { version: string };
    io.out.write(`${version}\n`);
    return 0;
  }
  try {
    const { sourceId } = parsed;
    const url = (parsed.url ?? env.DCG_KG_URL ?? 'http://127.0.0.1:8081').replace(/\/+$/, '');
    const key = parsed.key ?? env.DCG_KG_API_KEY;
    const kg = connect(url, key);
    await preflight(kg, url, sourceId, key);

    // Through `pnpm --filter kg-api dcg-kg …` the script runs in the package folder: relative
    // paths are meant from where the user typed the command (INIT_CWD).
    const cwd = env.INIT_CWD ?? process.cwd();
    const files = await expandInputs(parsed.inputs, cwd).catch((error: Error) => {
      throw couldNotRun(error.message);
    });
    const checked: CheckedFile[] = [];
    for (const path of files) checked.push(await checkFile(path, cwd, parsed.format, io));
    const quadCount = checked.reduce((sum, f) => sum + f.quads.length, 0);
    const file = checked.length === 1 ? checked[0]?.name : undefined;
    if (quadCount === 0)
      // Uploading it would empty the graph (kg-api refuses that unless asked explicitly).
      throw new CliFailure(
        `${file ?? `${checked.length} files`} hold${file ? 's' : ''} no triples${checked.every((f) => f.bytes.byteLength === 0) ? ` (${file ? 'the file is' : 'the files are'} empty)` : ''}; nothing was sent (to empty the graph, DELETE /v1/sources/${sourceId}/graph)`,
      );
    // One file goes as it is; several go as one N-Triples document of all their triples, since
    // an upload replaces the whole graph.
    const single = checked.length === 1 ? checked[0] : undefined;
    const format: RdfFormat = single ? single.format : 'n-triples';
    const bytes = single
      ? single.bytes
      : new Uint8Array(
          await new Response(
            serializeGraph(
              checked.flatMap((f) => f.quads),
              'n-triples',
            ),
          ).arrayBuffer(),
        );

    const upload = progressBar('upload', bytes.byteLength, io.err);
    let processing: ReturnType<typeof waitingIndicator> | undefined;
    const started = performance.now();
    const answer = await kg
      .replaceGraph(sourceId, bytes, {
        mediaType: mediaTypeOfRdfFormat(format),
        onUploadProgress: (sent) => upload.update(sent),
        onUploaded: () => {
          upload.finish();
          processing ??= waitingIndicator('processing', io.err);
        },
      })
      .catch((error: unknown) => {
        throw failureOf(error, url, 'kg-api refused the upload');
      })
      .finally(() => processing?.finish());
    const seconds = (performance.now() - started) / 1000;
    const uploaded = single ? { file } : { files: checked.map((f) => f.name) };
    io.out.write(
      `${JSON.stringify({ ...answer, format, ...uploaded, seconds: Math.round(seconds * 100) / 100 })}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof CliFailure) {
      io.err.write(`dcg-kg: ${error.message}\n`);
      // In GitHub Actions the failure is also an annotation (on the file's line for a syntax error).
      if (env.GITHUB_ACTIONS === 'true') io.err.write(githubAnnotation(error));
      return error.exitCode;
    }
    throw error;
  }
}

/** A file read and checked locally, ready to be sent. */
interface CheckedFile {
  name: string;
  format: RdfFormat;
  bytes: Uint8Array;
  quads: Quad[];
}

/** Reads and parses one file (with a progress bar): UTF-8, syntax, line and column. */
async function checkFile(
  path: string,
  cwd: string,
  forced: RdfFormat | undefined,
  io: { err: { write(text: string): unknown; isTTY?: boolean } },
): Promise<CheckedFile> {
  const { name, path: annotated } = fileNames(path, cwd);
  const format = forced ?? rdfFormatFromFileName(path);
  if (!format) throw couldNotRun(`cannot tell the RDF format of ${name}; pass --format`);
  const bytes = await readFile(path).catch((error: Error) => {
    throw couldNotRun(`cannot read ${name}: ${error.message}`);
  });
  const decoded = decodeUtf8(bytes);
  if (!decoded.success)
    throw new CliFailure(
      `${name}: not valid UTF-8 at byte ${decoded.byteOffset} (counted from 0) (nothing was sent)`,
    );
  const text = decoded.text;
  const check = progressBar(`check ${name}`, text.length, io.err);
  const result = await parseRdf(text, format, {
    onProgress: (n) => check.update(n),
    convert: rdfInWorker(),
  });
  check.finish();
  if (!result.success) {
    const issue = result.issues[0];
    // Over a limit of the converter (heap, time): the file may be valid, and has no line to
    // point at. A depth or entity expansion refused before parsing has one.
    if (result.exceeded === 'memory' || result.exceeded === 'time')
      throw new CliFailure(`${name}: ${issue?.message} (nothing was sent)`, { file: annotated });
    throw new CliFailure(
      `${name}:${issue?.line}:${issue?.column}: ${issue?.message} (nothing was sent)`,
      { file: annotated, line: issue?.line, column: issue?.column },
    );
  }
  return { name, format, bytes, quads: result.data };
}

/** The kg-api client of one run; a bad `--url` is a usage error. */
function connect(url: string, key: string | undefined): SourceGraphs {
  try {
    return createSourceGraphsClient({
      baseUrl: url,
      timeoutMs: 30_000,
      ...(key ? { apiKey: key } : {}),
    });
  } catch (error) {
    throw couldNotRun(`--url ${url}: ${(error as Error).message}`);
  }
}

/**
 * What a failed call means for the run: a problem answer is kg-api's verdict (4xx refused, 5xx
 * could not run); no answer, a timeout or a malformed answer leave no verdict.
 */
function failureOf(error: unknown, url: string, refusedBy: string): CliFailure {
  if (isProblem(error)) {
    const { title, detail } = error.problem;
    return refusal(
      error.status,
      `${refusedBy}: ${error.status} ${title ?? ''}${detail ? ` — ${detail}` : ''}`,
    );
  }
  if (KgClientError.isInstance(error) && error.code === 'network') {
    const cause = (error.cause as { cause?: unknown; message?: string } | undefined) ?? {};
    return couldNotRun(
      `cannot reach kg-api at ${url}: ${cause.cause ?? cause.message ?? error.message}`,
    );
  }
  return couldNotRun(`${(error as Error).message}`);
}

/**
 * Asks kg-api, before the file is read or sent, whether the upload can succeed: the source
 * exists and takes uploads (`GET /v1/sources`), and the key may write to it. The write check is
 * a `PUT` of an empty body with a media type that is no RDF format: kg-api checks the key, the
 * source and its ingestion mode before the media type, so a 415 means all three are fine and
 * nothing was changed.
 */
async function preflight(
  kg: SourceGraphs,
  url: string,
  sourceId: string,
  key: string | undefined,
): Promise<void> {
  // A listing kg-api refuses (reads that need a key the caller lacks) says nothing yet: the
  // write check below does.
  const sources = await kg.sources().catch((error: unknown) => {
    if (isProblem(error)) return undefined;
    throw failureOf(error, url, 'kg-api refused to list its sources');
  });
  if (sources) {
    const source = sources.find((candidate) => candidate.id === sourceId);
    if (!source) {
      const known = sources.map((candidate) => candidate.id).join(', ') || 'none';
      throw new CliFailure(`kg-api at ${url} has no source "${sourceId}" (its sources: ${known})`);
    }
    if (!source.modes.ingestion.enabled) {
      throw new CliFailure(
        `source "${sourceId}" does not take uploads (modes.ingestion.enabled is false in the kg-api configuration)`,
      );
    }
  }
  const probe = await kg
    .replaceGraph(sourceId, new Uint8Array(), { mediaType: 'application/x-dcg-kg-preflight' })
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  if (isProblem(probe) && probe.status === 415) return;
  if (isProblem(probe) && (probe.status === 401 || probe.status === 403)) {
    const { title, detail } = probe.problem;
    throw new CliFailure(
      `kg-api refused the key for an upload to "${sourceId}" (nothing was sent): ${probe.status} ${title ?? ''}${detail ? ` — ${detail}` : ''}${key ? '' : '; pass --key or set DCG_KG_API_KEY'}`,
    );
  }
  if (probe === undefined) {
    // kg-api took an empty document of an unknown type: not the kg-api this CLI knows.
    throw couldNotRun(`kg-api at ${url} accepted a preflight upload it should have refused`);
  }
  throw failureOf(probe, url, 'kg-api refused the upload (nothing was sent)');
}

/** What the command line asks for: a help or version text, or an ingest. */
type CliRequest =
  | { command: 'usage' }
  | { command: 'help' }
  | { command: 'version' }
  | {
      command: 'ingest';
      sourceId: string;
      inputs: string[];
      url: string | undefined;
      key: string | undefined;
      format: RdfFormat | undefined;
    };

function parseCliArgs(argv: string[]): CliRequest {
  if (argv.length === 0) return { command: 'usage' };
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      key: { type: 'string' },
      format: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'V' },
    },
  });
  if (values.help || positionals[0] === 'help') return { command: 'help' };
  if (values.version || positionals[0] === 'version') return { command: 'version' };
  const [command, sourceId, ...inputs] = positionals;
  if (command === undefined) throw new Error('a command is needed: ingest');
  if (command !== 'ingest') throw new Error(`unknown command "${command}"`);
  if (!sourceId || inputs.length === 0) {
    throw new Error('ingest needs SOURCE and at least one FILE, DIRECTORY or GLOB');
  }
  const format = values.format as RdfFormat | undefined;
  if (format !== undefined && !FORMATS.includes(format)) {
    throw new Error(`--format must be one of ${FORMATS.join(', ')}`);
  }
  return { command, sourceId, inputs, url: values.url, key: values.key, format };
}

/** A problem answer of kg-api (by code: the client's classes may come from two bundles). */
function isProblem(error: unknown): error is KgProblemError {
  return KgClientError.isInstance(error) && error.code === 'problem';
}
