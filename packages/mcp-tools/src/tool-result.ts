import type { CallToolResult } from '@modelcontextprotocol/server';
import { jsonBytes } from './paging';

/**
 * A successful tool answer: `structuredContent` for clients that read it, the same JSON as text
 * for those that do not (as the protocol recommends), after a one-line summary for people.
 * `json` is `structured` already serialized (by `fitItems`), so that it is not serialized again.
 *
 * @example
 * return toolResult({ hits }, '3 systems found');
 */
export function toolResult<T extends Record<string, unknown>>(
  structured: T,
  summary: string,
  json: string = JSON.stringify(structured),
): CallToolResult & { structuredContent: T } {
  return {
    structuredContent: structured,
    content: [{ type: 'text', text: `${summary}\n\n${json}` }],
  };
}

/**
 * A tool error for an answer that exceeds the size limit even when reduced to its minimum.
 *
 * @example
 * if (jsonBytes(view) > max) return tooLarge(max, 'ask for one output port with get_component');
 */
export function tooLarge(maxBytes: number, advice: string): CallToolResult {
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: `The answer is larger than this server's limit of ${maxBytes} bytes; ${advice}.`,
      },
    ],
  };
}

/**
 * {@link toolResult} when the answer fits in `maxBytes` (serialized once, for both the check and
 * the text), else {@link tooLarge} with `advice`.
 *
 * @example
 * return toolResultWithin(max, view, `${view.name}: 2 output ports`, 'read them one by one with get_component');
 */
export function toolResultWithin<T extends Record<string, unknown>>(
  maxBytes: number,
  structured: T,
  summary: string,
  advice: string,
): CallToolResult {
  const json = JSON.stringify(structured);
  if (Buffer.byteLength(json) > maxBytes) return tooLarge(maxBytes, advice);
  return toolResult(structured, summary, json);
}

export { jsonBytes };
