import type { ServiceMetrics } from '@dcg/http-kit';
import type { ToolCallObserver } from '@dcg/mcp-tools';

/** Seconds; a tool call runs from under a millisecond (a cached list) to the backends' timeouts. */
const TOOL_CALL_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];

/**
 * The metrics of the MCP tools: `mcp_tool_calls_total{tool,outcome}` (ok, tool_error,
 * invalid_params, failed), `mcp_tool_errors_total{tool,code}` (the backend client's code such as
 * `timeout` or `network`, `http_<status>` for a backend's problem, `invalid_input`,
 * `invalid_params`, `internal`) and `mcp_tool_call_duration_seconds{tool}`; answers the observer
 * to give `createDcgMcpServer` (`deps.observeToolCall`). Tool names are the registered ones, so
 * the series stay bounded.
 *
 * @example
 * const deps = { ...deps, observeToolCall: toolCallMetrics(metrics) };
 */
export function toolCallMetrics(metrics: ServiceMetrics): ToolCallObserver {
  // One set per registry: a second server on the same registry adds to the same series.
  const counter = <L extends string>(name: string, help: string, labels: readonly L[]) =>
    (metrics.registry.getSingleMetric(name) as ReturnType<typeof metrics.counter<L>>) ??
    metrics.counter(name, help, labels);
  const calls = counter('mcp_tool_calls_total', 'MCP tool calls, by tool and outcome', [
    'tool',
    'outcome',
  ]);
  const errors = counter(
    'mcp_tool_errors_total',
    'MCP tool calls that did not succeed, by tool and error code',
    ['tool', 'code'],
  );
  const duration =
    (metrics.registry.getSingleMetric('mcp_tool_call_duration_seconds') as ReturnType<
      typeof metrics.histogram<'tool'>
    >) ??
    metrics.histogram(
      'mcp_tool_call_duration_seconds',
      'Time in the tool handler (backend calls included), by tool',
      ['tool'],
      TOOL_CALL_BUCKETS,
    );
  return ({ tool, outcome, code, durationSeconds }) => {
    calls.inc({ tool, outcome });
    if (outcome !== 'ok') errors.inc({ tool, code: code ?? outcome });
    if (outcome !== 'invalid_params') duration.observe({ tool }, durationSeconds);
  };
}
