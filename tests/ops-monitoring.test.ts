import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { governanceApiScrape } from '../apps/governance-api/src/__fixtures__/metrics-scrape';
import { kgApiScrape } from '../apps/kg-api/src/__fixtures__/metrics-scrape';
import { mcpServerScrape } from '../apps/mcp-server/src/__fixtures__/metrics-scrape.testkit';
import { postgresGuardianScrape } from '../apps/postgres-guardian/src/__fixtures__/metrics-scrape';
import { parsePrometheusText } from '../packages/http-kit/src/operations.testkit';

// The monitoring files in ops/ against the apps as they are: the alert rules pass
// `promtool check rules`, real scrapes pass `promtool check metrics`, and every metric that the
// dashboard and the rules name exists in a scrape (so they cannot drift from the code).

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RULES = join(root, 'ops', 'prometheus', 'alerts.yml');
const DASHBOARD = join(root, 'ops', 'grafana', 'dcg-dashboard.json');

const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' }).status === 0;
// In CI a missing promtool fails the checks (scripts/ensure-system.sh installs Debian's
// `prometheus`, which ships it); elsewhere they skip, and say so in their names.
const runPromtool = promtool || process.env.CI === 'true';
const needs = promtool ? '' : ' (skipped: no promtool; scripts/ensure-system.sh installs it)';

function promtoolRun(args: string[], input?: string) {
  if (!promtool) throw new Error('promtool is not installed: run scripts/ensure-system.sh');
  return spawnSync('promtool', args, { encoding: 'utf8', input, cwd: root });
}

const PROM_CLIENT_NAMES =
  /^nodejs_active_(?:handles|requests|resources)_total non-counter metrics should not have "_total" suffix$/;

const PROMQL_WORDS = new Set([
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'inf',
  'nan',
]);

/** The metric names a PromQL expression reads (functions, labels, keywords and strings left out). */
export function metricNamesOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '')
    .replace(/\[[^\]]*\]/g, '');
  const names: string[] = [];
  for (const match of bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const after = bare.slice((match.index ?? 0) + match[0].length).trimStart();
    if (after.startsWith('(') || PROMQL_WORDS.has(match[0].toLowerCase())) continue;
    names.push(match[0]);
  }
  return names;
}

/**
 * The `expr` of every rule. promtool checks the file's structure; this reads only the expressions,
 * inline (`expr: …`) or as a block (`expr: |` and the more indented lines after it), without a
 * YAML dependency in this workspace project.
 */
function rulesExpressions(): string[] {
  const lines = readFileSync(RULES, 'utf8').split('\n');
  const exprs: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const match = /^(\s*)(?:- )?expr:\s*(.*)$/.exec(lines[i] ?? '');
    if (!match) continue;
    const [, indent = '', value = ''] = match;
    if (value !== '|' && value !== '>') {
      exprs.push(value);
      continue;
    }
    const block: string[] = [];
    while (i + 1 < lines.length && /^\s*$|^\s+/.test(lines[i + 1] ?? '')) {
      const next = lines[i + 1] ?? '';
      if (next.trim() !== '' && next.search(/\S/) <= indent.length) break;
      block.push(next.trim());
      i++;
    }
    exprs.push(block.join(' ').trim());
  }
  return exprs;
}

function dashboardExpressions(): string[] {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
    panels: Array<{ targets?: Array<{ expr: string }> }>;
    templating: { list: Array<{ definition?: string }> };
  };
  const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
  // label_values(metric, label): the metric is read too.
  const variables = dashboard.templating.list
    .map((v) => /label_values\(\s*([a-zA-Z_:][\w:]*)/.exec(v.definition ?? '')?.[1])
    .filter((name): name is string => name !== undefined);
  return [...exprs, ...variables];
}

describe('ops monitoring: dashboard, alert rules and the apps’ scrapes', () => {
  const scrapes: Record<string, string> = {};
  beforeAll(async () => {
    scrapes['governance-api'] = await governanceApiScrape();
    scrapes['kg-api'] = await kgApiScrape();
    scrapes['postgres-guardian'] = await postgresGuardianScrape();
    scrapes['mcp-server'] = await mcpServerScrape();
  }, 120_000);

  it('reads metric names out of PromQL, not functions, labels or keywords', () => {
    expect(
      metricNamesOf(
        'sum by (service) (rate(http_requests_total{status=~"5.."}[5m])) / on(service) group_left max(up) > 0 and time() - x_seconds > 2 * 300',
      ),
    ).toEqual(['http_requests_total', 'up', 'x_seconds']);
  });

  it('names in the dashboard and the rules only metrics that an app exposes', () => {
    const exposed = new Set<string>();
    for (const text of Object.values(scrapes)) {
      const { samples, types } = parsePrometheusText(text);
      for (const sample of samples) exposed.add(sample.name);
      for (const [name, type] of types) {
        exposed.add(name);
        // A histogram or summary without observations yet has no sample lines.
        if (type === 'histogram')
          for (const s of ['_bucket', '_count', '_sum']) exposed.add(name + s);
      }
    }
    const rules = rulesExpressions().flatMap(metricNamesOf);
    const dashboard = dashboardExpressions().flatMap(metricNamesOf);
    expect(rulesExpressions()).toHaveLength(14);
    expect(rules.length).toBeGreaterThan(5);
    expect(dashboard.length).toBeGreaterThan(20);
    expect([...new Set(rules)].filter((name) => !exposed.has(name))).toEqual([]);
    expect([...new Set(dashboard)].filter((name) => !exposed.has(name))).toEqual([]);
  });

  it.runIf(runPromtool)(`passes promtool check rules${needs}`, () => {
    const run = promtoolRun(['check', 'rules', RULES]);
    expect(run.stdout + run.stderr).toContain('SUCCESS');
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });

  it.runIf(runPromtool)(
    `serves scrapes that pass promtool check metrics on governance-api, kg-api, postgres-guardian and mcp-server${needs}`,
    () => {
      for (const [app, text] of Object.entries(scrapes)) {
        const run = promtoolRun(['check', 'metrics'], text);
        // prom-client's own default gauges nodejs_active_{handles,requests,resources}_total
        // break the `_total` naming rule (its names, not ours): those three lines and no other.
        const problems = `${run.stdout}${run.stderr}`
          .split('\n')
          .filter((line) => line.trim() !== '')
          .filter((line) => !PROM_CLIENT_NAMES.test(line));
        expect(problems, app).toEqual([]);
        expect([0, 3], app).toContain(run.status);
      }
    },
  );

  it('exposes the guardian runs by outcome and their duration', () => {
    const { samples, types } = parsePrometheusText(scrapes['postgres-guardian'] ?? '');
    expect(types.get('guardian_runs_total')).toBe('counter');
    expect(types.get('guardian_run_duration_seconds')).toBe('histogram');
    const count = (outcome: string) =>
      samples.find(
        (s) => s.name === 'guardian_run_duration_seconds_count' && s.labels.outcome === outcome,
      )?.value;
    for (const outcome of ['compliant', 'violated', 'could_not_run', 'abandoned'])
      expect(count(outcome), outcome).toBe(1);
  });

  it('exposes dcg_build_info on every app', () => {
    for (const [app, text] of Object.entries(scrapes)) {
      const { samples, types } = parsePrometheusText(text);
      expect(types.get('dcg_build_info'), app).toBe('gauge');
      const info = samples.find((s) => s.name === 'dcg_build_info');
      expect(info, app).toMatchObject({ value: 1, labels: { service: app } });
      expect(info?.labels.node_version, app).toBe(process.version);
    }
  });

  it('exposes the OAuth errors by endpoint and code, sign-ins by outcome and reuses by credential', () => {
    const { samples, types } = parsePrometheusText(scrapes['mcp-server'] ?? '');
    expect(types.get('mcp_oauth_errors_total')).toBe('counter');
    expect(types.get('mcp_oauth_logins_total')).toBe('counter');
    expect(types.get('mcp_oauth_reuse_detected_total')).toBe('counter');
    // The fixture's refused token request (a refresh token the server never issued).
    expect(
      samples.find((s) => s.name === 'mcp_oauth_errors_total' && s.labels.endpoint === 'grant'),
    ).toMatchObject({ labels: { code: 'invalid_grant' }, value: 1 });
    const series = (name: string, label: string) =>
      samples
        .filter((s) => s.name === name)
        .map((s) => s.labels[label])
        .sort();
    expect(series('mcp_oauth_logins_total', 'outcome')).toEqual([
      'success',
      'throttled',
      'unavailable',
      'wrong_credentials',
    ]);
    expect(series('mcp_oauth_reuse_detected_total', 'credential')).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
  });

  it.runIf(!runPromtool)(`promtool checks${needs}`, () => {
    // Visible in the report: the promtool checks above did not run on this machine.
    expect(promtool).toBe(false);
  });
});
