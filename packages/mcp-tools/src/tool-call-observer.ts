import { jsonSchemaOnce } from './json-schema-once';
import { toolErrorCode } from './tool-errors';

/**
 * How a tool call ended: `ok`; `tool_error` (a tool error the assistant reads, with its code);
 * `invalid_params` (the arguments did not match the input schema: the tool never ran); `failed`
 * (the handler threw an error that is not a backend's, a bug the SDK reports).
 */
export type ToolCallOutcome = 'ok' | 'tool_error' | 'invalid_params' | 'failed';

/** One tool call as a {@link ToolCallObserver} sees it. */
export interface ToolCallObservation {
  tool: string;
  outcome: ToolCallOutcome;
  /** The error's code (`timeout`, `http_404`, `invalid_input`, `invalid_params`, `internal`, …); absent when `ok`. */
  code?: string;
  /** Time in the handler, in seconds (0 for `invalid_params`). */
  durationSeconds: number;
}

/** Called once per tool call (metrics, logs). Must not throw. */
export type ToolCallObserver = (observation: ToolCallObservation) => void;

type ToolConfig = { inputSchema?: unknown; outputSchema?: unknown; [key: string]: unknown };
type ToolHandler = (...args: unknown[]) => unknown;

/**
 * The arguments of one `registerTool` call, with each schema converted to JSON Schema once (see
 * {@link jsonSchemaOnce}) and, with `observe`, every call of the tool reported: its outcome,
 * error code and time, refused arguments included.
 *
 * @example
 * server.registerTool(...observedTool(['get_system', config, handler], (o) => calls.inc(o)));
 */
export function observedTool(args: unknown[], observe?: ToolCallObserver): unknown[] {
  const [name, config, handler, ...rest] = args as [string, ToolConfig, ToolHandler, ...unknown[]];
  if (typeof name !== 'string' || config === null || typeof config !== 'object') return args;
  const report = (observation: ToolCallObservation) => {
    try {
      observe?.(observation);
    } catch {
      // An observer's failure never fails the call.
    }
  };
  const refused = (validate: (value: unknown) => unknown) => (value: unknown) => {
    const answer = validate(value);
    const check = (result: unknown) => {
      if ((result as { issues?: unknown[] } | undefined)?.issues?.length) {
        report({
          tool: name,
          outcome: 'invalid_params',
          code: 'invalid_params',
          durationSeconds: 0,
        });
      }
      return result;
    };
    return answer instanceof Promise ? answer.then(check) : check(answer);
  };
  const wrappedConfig: ToolConfig = {
    ...config,
    ...(config.inputSchema !== undefined
      ? { inputSchema: jsonSchemaOnce(config.inputSchema, observe ? refused : undefined) }
      : {}),
    ...(config.outputSchema !== undefined
      ? { outputSchema: jsonSchemaOnce(config.outputSchema) }
      : {}),
  };
  if (!observe || typeof handler !== 'function') return [name, wrappedConfig, handler, ...rest];
  const wrappedHandler: ToolHandler = async (...handlerArgs) => {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const result = await handler(...handlerArgs);
      const isError = (result as { isError?: unknown } | undefined)?.isError === true;
      report(
        isError
          ? {
              tool: name,
              outcome: 'tool_error',
              code: toolErrorCode(result) ?? 'tool_error',
              durationSeconds: seconds(),
            }
          : { tool: name, outcome: 'ok', durationSeconds: seconds() },
      );
      return result;
    } catch (error) {
      report({ tool: name, outcome: 'failed', code: 'internal', durationSeconds: seconds() });
      throw error;
    }
  };
  return [name, wrappedConfig, wrappedHandler, ...rest];
}
