import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  decodeUtf8,
  mediaTypeOfRdfFormat,
  parseRdf,
  type RdfFormat,
  rdfFormatFromFileName,
} from '@dcg/knowledge-graph';
import { jsonLdInWorker } from '@dcg/knowledge-graph/node';
import { progressBar, waitingIndicator } from './progress-bar';

const USAGE = `Usage: dcg-kg ingest SOURCE FILE [--url URL] [--key KEY] [--format FORMAT]
       dcg-kg --help | -h | ingest --help
       dcg-kg --version

Uploads an RDF file (Turtle .ttl, N-Triples .nt, N-Quads .nq, TriG .trig, JSON-LD .jsonld) as the
whole graph of SOURCE on a running kg-api, with a progress bar. Before anything is read or sent,
kg-api is asked whether SOURCE exists, takes uploads, and whether the key may write to it. The
file is then checked locally: a syntax error is reported with its line and column, invalid UTF-8
with its byte, a file with no triples (an empty file) is refused, and nothing is sent. While
kg-api processes the upload, the time it has taken so far is shown.

  --url     kg-api base URL (env DCG_KG_URL, default http://127.0.0.1:8081)
  --key     API key with the writer role (env DCG_KG_API_KEY)
  --format  turtle | n-triples | n-quads | trig | json-ld (default: from the file extension)
`;

const FORMATS: readonly RdfFormat[] = ['turtle', 'n-triples', 'n-quads', 'trig', 'json-ld'];

/** Thrown for a failure the CLI reports as a message (exit code 1), without a stack. */
class CliFailure extends Error {
  constructor(
    message: string,
    /** The file and the place in it the failure is about, for GitHub annotations. */
    readonly at?: { file: string; line?: number | undefined; column?: number | undefined },
  ) {
    super(message);
  }
}

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
    return 2;
  }
  if (parsed.help) {
    io.out.write(USAGE);
    return 0;
  }
  if (parsed.version) {
    const { version } = createRequire(import.meta.url)('../package.json') as { version: string };
    io.out.write(`${version}\n`);
    return 0;
  }
  try {
    const { sourceId, file } = parsed;
    const format = parsed.format ?? rdfFormatFromFileName(file);
    if (!format) throw new CliFailure(`cannot tell the RDF format of ${file}; pass --format`);
    const url = (parsed.url ?? env.DCG_KG_URL ?? 'http://127.0.0.1:8081').replace(/\/+$/, '');
    const key = parsed.key ?? env.DCG_KG_API_KEY;
    await preflight(url, sourceId, key);

    // Through `pnpm --filter kg-api dcg-kg …` the script runs in the package folder: relative
    // paths are meant from where the user typed the command (INIT_CWD).
    const path = resolve(env.INIT_CWD ?? process.cwd(), file);
    const bytes = await readFile(path).catch((error: Error) => {
      throw new CliFailure(`cannot read ${file}: ${error.message}`);
    });
    const decoded = decodeUtf8(bytes);
    if (!decoded.success)
      throw new CliFailure(
        `${basename(file)}: not valid UTF-8 at byte ${decoded.byteOffset} (counted from 0) (nothing was sent)`,
      );
    const text = decoded.text;
    const check = progressBar('check', text.length, io.err);
    const result = await parseRdf(text, format, {
      onProgress: (n) => check.update(n),
      jsonLd: jsonLdInWorker(),
    });
    check.finish();
    if (!result.success) {
      const issue = result.issues[0];
      throw new CliFailure(
        `${basename(file)}:${issue?.line}:${issue?.column}: ${issue?.message} (nothing was sent)`,
        { file, line: issue?.line, column: issue?.column },
      );
    }
    if (result.data.length === 0)
      // Uploading it would empty the graph (kg-api refuses that unless asked explicitly).
      throw new CliFailure(
        `${basename(file)} holds no triples${bytes.byteLength === 0 ? ' (the file is empty)' : ''}; nothing was sent (to empty the graph, DELETE /v1/sources/${sourceId}/graph)`,
      );

    const upload = progressBar('upload', bytes.byteLength, io.err);
    let processing: ReturnType<typeof waitingIndicator> | undefined;
    let sent = 0;
    const chunkSize = 256 * 1024;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= bytes.byteLength) {
          controller.close();
          return;
        }
        const chunk = bytes.subarray(sent, sent + chunkSize);
        sent += chunk.byteLength;
        upload.update(sent);
        controller.enqueue(chunk);
        if (sent >= bytes.byteLength) {
          upload.finish();
          processing ??= waitingIndicator('processing', io.err);
        }
      },
    });
    const started = performance.now();
    const response = await fetch(`${url}/v1/sources/${encodeURIComponent(sourceId)}/graph`, {
      method: 'PUT',
      headers: {
        'content-type': mediaTypeOfRdfFormat(format),
        'content-length': String(bytes.byteLength),
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body,
      duplex: 'half',
    } as RequestInit)
      .catch((error: Error) => {
        throw new CliFailure(`cannot reach kg-api at ${url}: ${error.cause ?? error.message}`);
      })
      .finally(() => processing?.finish());
    const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) {
      throw new CliFailure(
        `kg-api refused the upload: ${response.status} ${answer.title ?? ''}${answer.detail ? ` — ${answer.detail}` : ''}`,
      );
    }
    const seconds = (performance.now() - started) / 1000;
    io.out.write(
      `${JSON.stringify({ ...answer, format, file, seconds: Math.round(seconds * 100) / 100 })}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof CliFailure) {
      io.err.write(`dcg-kg: ${error.message}\n`);
      // In GitHub Actions the failure is also an annotation (on the file's line for a syntax error).
      if (env.GITHUB_ACTIONS === 'true') io.err.write(githubAnnotation(error));
      return 1;
    }
    throw error;
  }
}

/**
 * Asks kg-api, before the file is read or sent, whether the upload can succeed: the source
 * exists and takes uploads (`GET /v1/sources`), and the key may write to it. The write check is
 * a `PUT` of an empty body with a media type that is no RDF format: kg-api checks the key, the
 * source and its ingestion mode before the media type, so a 415 means all three are fine and
 * nothing was changed.
 */
async function preflight(url: string, sourceId: string, key: string | undefined): Promise<void> {
  const authorization: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const ask = (path: string, init: RequestInit = {}) =>
    fetch(`${url}${path}`, {
      ...init,
      headers: { ...authorization, ...(init.headers as Record<string, string> | undefined) },
      signal: AbortSignal.timeout(30_000),
    }).catch((error: Error) => {
      throw new CliFailure(`cannot reach kg-api at ${url}: ${error.cause ?? error.message}`);
    });
  const listing = await ask('/v1/sources');
  if (listing.ok) {
    const { sources = [] } = (await listing.json().catch(() => ({}))) as {
      sources?: { id: string; modes?: { ingestion?: { enabled?: boolean } } }[];
    };
    const source = sources.find((candidate) => candidate.id === sourceId);
    if (!source) {
      const known = sources.map((candidate) => candidate.id).join(', ') || 'none';
      throw new CliFailure(`kg-api at ${url} has no source "${sourceId}" (its sources: ${known})`);
    }
    if (source.modes?.ingestion?.enabled === false) {
      throw new CliFailure(
        `source "${sourceId}" does not take uploads (modes.ingestion.enabled is false in the kg-api configuration)`,
      );
    }
  }
  const probe = await ask(`/v1/sources/${encodeURIComponent(sourceId)}/graph`, {
    method: 'PUT',
    headers: { 'content-type': 'application/x-dcg-kg-preflight' },
    body: '',
  });
  if (probe.status === 415) return;
  const answer = (await probe.json().catch(() => ({}))) as Record<string, unknown>;
  const why = `${probe.status} ${answer.title ?? ''}${answer.detail ? ` — ${answer.detail}` : ''}`;
  if (probe.status === 401 || probe.status === 403) {
    throw new CliFailure(
      `kg-api refused the key for an upload to "${sourceId}" (nothing was sent): ${why}${key ? '' : '; pass --key or set DCG_KG_API_KEY'}`,
    );
  }
  throw new CliFailure(`kg-api refused the upload (nothing was sent): ${why}`);
}

function parseCliArgs(argv: string[]) {
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
  if (values.help || positionals[0] === 'help') {
    return { help: true as const, version: false as const, sourceId: '', file: '' };
  }
  if (values.version || positionals[0] === 'version') {
    return { help: false as const, version: true as const, sourceId: '', file: '' };
  }
  const [command, sourceId, file, ...rest] = positionals;
  if (command !== 'ingest') throw new Error(`unknown command "${command ?? ''}"`);
  if (!sourceId || !file || rest.length > 0) throw new Error('ingest needs SOURCE and FILE');
  const format = values.format as RdfFormat | undefined;
  if (format !== undefined && !FORMATS.includes(format)) {
    throw new Error(`--format must be one of ${FORMATS.join(', ')}`);
  }
  return {
    help: false as const,
    version: false as const,
    sourceId,
    file,
    url: values.url,
    key: values.key,
    format,
  };
}
