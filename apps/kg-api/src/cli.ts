import { readFile } from 'node:fs/promises';
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
import { progressBar } from './progress-bar';

const USAGE = `Usage: dcg-kg ingest SOURCE FILE [--url URL] [--key KEY] [--format FORMAT]

Uploads an RDF file (Turtle .ttl, N-Triples .nt, N-Quads .nq, TriG .trig, JSON-LD .jsonld) as the
whole graph of SOURCE on a running kg-api, with a progress bar. The file is checked locally first:
a syntax error is reported with its line and column, invalid UTF-8 with its byte, a file with no
triples (an empty file) is refused, and nothing is sent.

  --url     kg-api base URL (env DCG_KG_URL, default http://127.0.0.1:8081)
  --key     API key with the writer role (env DCG_KG_API_KEY)
  --format  turtle | n-triples | n-quads | trig | json-ld (default: from the file extension)
`;

const FORMATS: readonly RdfFormat[] = ['turtle', 'n-triples', 'n-quads', 'trig', 'json-ld'];

/** Thrown for a failure the CLI reports as a message (exit code 1), without a stack. */
class CliFailure extends Error {}

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
  try {
    const { sourceId, file } = parsed;
    const format = parsed.format ?? rdfFormatFromFileName(file);
    if (!format) throw new CliFailure(`cannot tell the RDF format of ${file}; pass --format`);
    const url = (parsed.url ?? env.DCG_KG_URL ?? 'http://127.0.0.1:8081').replace(/\/+$/, '');
    const key = parsed.key ?? env.DCG_KG_API_KEY;

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
      );
    }
    if (result.data.length === 0)
      // Uploading it would empty the graph (kg-api refuses that unless asked explicitly).
      throw new CliFailure(
        `${basename(file)} holds no triples${bytes.byteLength === 0 ? ' (the file is empty)' : ''}; nothing was sent (to empty the graph, DELETE /v1/sources/${sourceId}/graph)`,
      );

    const upload = progressBar('upload', bytes.byteLength, io.err);
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
    } as RequestInit).catch((error: Error) => {
      throw new CliFailure(`cannot reach kg-api at ${url}: ${error.cause ?? error.message}`);
    });
    upload.finish();
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
      return 1;
    }
    throw error;
  }
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
    },
  });
  if (values.help) return { help: true as const, sourceId: '', file: '' };
  const [command, sourceId, file, ...rest] = positionals;
  if (command !== 'ingest') throw new Error(`unknown command "${command ?? ''}"`);
  if (!sourceId || !file || rest.length > 0) throw new Error('ingest needs SOURCE and FILE');
  const format = values.format as RdfFormat | undefined;
  if (format !== undefined && !FORMATS.includes(format)) {
    throw new Error(`--format must be one of ${FORMATS.join(', ')}`);
  }
  return { help: false as const, sourceId, file, url: values.url, key: values.key, format };
}

// Run when executed directly (not when imported by tests).
if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1]))) {
  runCli(process.argv.slice(2), process.env).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`dcg-kg: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
