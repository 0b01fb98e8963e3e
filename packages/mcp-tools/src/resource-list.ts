import { contractStateOf } from '@dcg/contract-schema';
import type { MarketplaceClient } from '@dcg/marketplace-client';
import {
  type ListResourcesResult,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import type { DcgMcpDeps } from './dcg-mcp-deps';

/** URI of the resource of a deployed system. */
export function systemResourceUri(environment: string, systemId: string): string {
  return `dcg://systems/${encodeURIComponent(environment)}/${encodeURIComponent(systemId)}`;
}

/** URI of the resource of a data contract. */
export function dataContractResourceUri(environment: string, contractId: string): string {
  return `dcg://data-contracts/${encodeURIComponent(environment)}/${encodeURIComponent(contractId)}`;
}

type Listed = ListResourcesResult['resources'][number];

/**
 * Answers `resources/list` a page at a time, as the protocol pages lists: `limits.resourcesPageSize`
 * resources (systems and data contracts, ordered by URI) and a `nextCursor` while more follow.
 * The cursor names the last URI answered, so a deployment or undeployment between two pages
 * neither repeats nor skips the resources that stay. Replaces the SDK's handler, which answers
 * every resource at once.
 *
 * @example
 * replay(server);
 * pageResourceList(server, deps);
 */
export function pageResourceList(server: McpServer, deps: DcgMcpDeps): void {
  const pageSize = deps.limits.resourcesPageSize;
  server.server.setRequestHandler('resources/list', async (request, ctx) => {
    const after = decodeAfter(request.params?.cursor);
    const all = await listAll(deps.marketplace, ctx.mcpReq.signal);
    const rest = after === undefined ? all : all.filter((resource) => resource.uri > after);
    const page = rest.slice(0, pageSize);
    return {
      resources: page,
      ...(rest.length > pageSize ? { nextCursor: encodeAfter(page.at(-1)!.uri) } : {}),
    };
  });
}

/** Every deployed system and data contract, in one read of the marketplace, ordered by URI. */
async function listAll(marketplace: MarketplaceClient, signal: AbortSignal): Promise<Listed[]> {
  const instances = await marketplace.listInstances({ signal });
  const resources: Listed[] = [];
  for (const instance of instances) {
    resources.push({
      uri: systemResourceUri(instance.environment, instance.systemId),
      name: instance.systemId,
      title: `${instance.name} (${instance.environment})`,
      description: `System ${instance.systemId} (${instance.kind}) deployed in ${instance.environment}`,
      mimeType: 'application/json',
    });
    for (const component of instance.components) {
      if (!component.dataContract) continue;
      resources.push({
        uri: dataContractResourceUri(instance.environment, component.id),
        name: component.id,
        title: `${component.name ?? component.id} of ${instance.name} (${instance.environment})`,
        description: `Data contract ${component.id}: ${contractStateOf(component.compliance)}`,
        mimeType: 'application/json',
      });
    }
  }
  return resources.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
}

const cursorPrefix = 'after:';

function encodeAfter(uri: string): string {
  return Buffer.from(`${cursorPrefix}${uri}`, 'utf8').toString('base64url');
}

/** The URI a cursor continues after; a cursor this server did not issue is invalid params. */
function decodeAfter(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const text = /^[A-Za-z0-9_-]{1,4096}$/.test(cursor)
    ? Buffer.from(cursor, 'base64url').toString('utf8')
    : '';
  if (!text.startsWith(`${cursorPrefix}dcg://`)) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'The cursor is not one resources/list issued; list again without a cursor',
    );
  }
  return text.slice(cursorPrefix.length);
}
