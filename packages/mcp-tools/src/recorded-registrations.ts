import type { McpServer } from '@modelcontextprotocol/server';
import { observedTool, type ToolCallObserver } from './tool-call-observer';

type Method = 'registerTool' | 'registerResource' | 'registerPrompt';
const methods: readonly Method[] = ['registerTool', 'registerResource', 'registerPrompt'];

/**
 * Runs `register` once against a recorder and answers a function that repeats the same
 * registrations on any server. The 2026-07-28 serving builds one server per request: replaying
 * saves rebuilding every tool's schemas each time (the definitions are immutable once made), and
 * each tool's schemas are converted to JSON Schema once, not once per server (see
 * `observedTool`), which also reports each call to `observe` when given.
 *
 * @example
 * const replay = recordRegistrations((server) => registerMarketplaceTools(server, deps));
 * replay(new McpServer(info));
 */
export function recordRegistrations(
  register: (server: McpServer) => void,
  observe?: ToolCallObserver,
): (server: McpServer) => void {
  const calls: { method: Method; args: unknown[] }[] = [];
  const recorder = Object.fromEntries(
    methods.map((method) => [
      method,
      (...args: unknown[]) =>
        void calls.push({
          method,
          args: method === 'registerTool' ? observedTool(args, observe) : args,
        }),
    ]),
  ) as unknown as McpServer;
  register(recorder);
  return (server) => {
    for (const { method, args } of calls) (server[method] as (...a: unknown[]) => unknown)(...args);
  };
}
