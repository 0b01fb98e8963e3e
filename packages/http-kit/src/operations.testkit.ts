import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** What `redocly lint --format=json` reports. */
export interface RedoclyReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: Array<{ ruleId: string; message: string; location?: Array<{ pointer?: string }> }>;
}

/**
 * Runs `redocly lint` (the workspace's `@redocly/cli`, with the root `redocly.yaml`) on an OpenAPI
 * document, as CI and any consumer would, and returns its JSON report.
 *
 * @example
 * const report = await redoclyLint(await (await app.request('/openapi.json')).json());
 * expect(report.problems).toEqual([]);
 */
export async function redoclyLint(document: unknown): Promise<RedoclyReport> {
  const dir = await mkdtemp(join(tmpdir(), 'redocly-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    const child = spawn(
      join(root, 'node_modules', '.bin', 'redocly'),
      ['lint', file, '--format=json', `--config=${join(root, 'redocly.yaml')}`],
      {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    await new Promise((resolve) => child.on('close', resolve));
    const start = out.indexOf('{');
    if (start < 0) throw new Error(`redocly lint printed no report:\n${out}\n${err}`);
    return JSON.parse(out.slice(start)) as RedoclyReport;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The problems of a report that are not in `allowed` (a rule on a JSON pointer prefix): the probes
 * `/health` and `/ready` can answer no 4xx, which `operation-4xx-response` warns about.
 *
 * @example
 * expect(unexpectedProblems(report)).toEqual([]);
 */
export function unexpectedProblems(
  report: RedoclyReport,
  allowed: Array<{ ruleId: string; pointer: string }> = PROBES_HAVE_NO_4XX,
): string[] {
  return report.problems
    .filter(
      (problem) =>
        !allowed.some(
          (allow) =>
            allow.ruleId === problem.ruleId &&
            (problem.location ?? []).some((l) => l.pointer?.startsWith(allow.pointer)),
        ),
    )
    .map((problem) => `${problem.ruleId} at ${problem.location?.[0]?.pointer}: ${problem.message}`);
}

const PROBES_HAVE_NO_4XX = [
  { ruleId: 'operation-4xx-response', pointer: '#/paths/~1health/get' },
  { ruleId: 'operation-4xx-response', pointer: '#/paths/~1ready/get' },
];

/** One sample of a Prometheus text exposition. */
export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g;

/**
 * Parses the Prometheus text format (what a scraper reads): every sample with its labels, and the
 * `# TYPE` of every metric. Throws on a line that is neither a comment nor a sample.
 *
 * @example
 * const { samples, types } = parsePrometheusText(await (await fetch(`${url}/metrics`)).text());
 */
export function parsePrometheusText(text: string): {
  samples: PrometheusSample[];
  types: Map<string, string>;
} {
  const samples: PrometheusSample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (type?.[1] && type[2]) types.set(type[1], type[2]);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match?.[1] || match[3] === undefined) throw new Error(`not a Prometheus sample: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) {
      if (key !== undefined && value !== undefined)
        labels[key] = value.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1');
    }
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return { samples, types };
}

/**
 * The value of the first `http_requests_total` sample whose labels include all of `labels`.
 *
 * @example
 * expect(requestsTotal(samples, { method: 'GET', route: '/health', status: '200' })).toBe(1);
 */
export function requestsTotal(
  samples: readonly PrometheusSample[],
  labels: Record<string, string>,
): number | undefined {
  return samples.find(
    (s) =>
      s.name === 'http_requests_total' &&
      Object.entries(labels).every(([name, value]) => s.labels[name] === value),
  )?.value;
}
