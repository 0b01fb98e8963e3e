import {
  type McpServer,
  requireScopes,
  type ScopeChallengeHandler,
} from '@modelcontextprotocol/server';
import { SCOPES } from './scopes';

/**
 * The scope each list request needs whose answer is data rather than the server's static
 * surface: `resources/list` names every deployed system and contract with its compliance, and the
 * resource templates describe those marketplace resources. `tools/list` and `prompts/list` stay
 * open, so that a client learns which scopes to ask for.
 */
export const LIST_SCOPES: Readonly<Record<string, ScopeChallengeHandler>> = {
  'resources/list': requireScopes(SCOPES.marketplaceRead),
  'resources/templates/list': requireScopes(SCOPES.marketplaceRead),
};

/**
 * Adds the scope challenges of {@link LIST_SCOPES} to a server. The SDK resolves challenges only
 * for `tools/call`, `resources/read` and `prompts/get` (from what each registration declares), and
 * `resources/list` is answered by our own paging handler, which declares nothing: this chains one
 * resolver in front of the SDK's, so a token without the scope gets the same `403
 * insufficient_scope` at the HTTP layer as a tool call would.
 *
 * @example
 * const server = new McpServer(info);
 * challengeListScopes(server);
 */
export function challengeListScopes(server: McpServer): void {
  const registered = server.resolveScopeChallenge;
  server.resolveScopeChallenge = (context) =>
    LIST_SCOPES[context.request.method]?.(context) ?? registered(context);
}
