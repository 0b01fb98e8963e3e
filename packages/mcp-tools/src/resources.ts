import {
  type McpServer,
  ResourceNotFoundError,
  ResourceTemplate,
  requireScopes,
} from '@modelcontextprotocol/server';
import type { DcgMcpDeps } from './dcg-mcp-deps';
import { complianceOutput } from './marketplace-tools';
import { SCOPES } from './scopes';
import { readDeployedSystem } from './system-view';
import { describeFailure, ToolInputError } from './tool-errors';

/**
 * Registers the resources: every deployed system (`dcg://systems/{environment}/{systemId}`: its
 * descriptor view with output ports and data contracts) and every data contract
 * (`dcg://data-contracts/{environment}/{contractId}`: the contract and its compliance), both as
 * templates. Need the `marketplace:read` scope. `resources/list` enumerates them a page at a time
 * (see `resource-list.ts`), so the templates carry no list callback of their own.
 *
 * @example
 * registerResources(server, deps);
 */
export function registerResources(server: McpServer, deps: DcgMcpDeps): void {
  const { marketplace, cacheHints } = deps;
  const scopeChallenge = requireScopes(SCOPES.marketplaceRead);

  // Both resources are JSON documents of the marketplace, read with the same scope and cache hint.
  // The template's variables arrive decoded, by name (`V`).
  const registerJsonResource = <V extends string>(
    name: string,
    uriTemplate: string,
    about: { title: string; description: string },
    read: (
      uri: URL,
      variables: Record<V, string>,
      signal: AbortSignal,
    ) => Promise<Record<string, unknown>>,
  ) =>
    server.registerResource(
      name,
      new ResourceTemplate(uriTemplate, { list: undefined }),
      {
        ...about,
        mimeType: 'application/json',
        cacheHint: cacheHints.marketplaceData,
        scopeChallenge,
      },
      async (uri, variables, ctx) => {
        const decoded = Object.fromEntries(
          Object.entries(variables).map(([n, value]) => [n, variable(value)]),
        ) as Record<V, string>;
        const body = await read(uri, decoded, ctx.mcpReq.signal);
        return {
          contents: [
            { uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body, null, 2) },
          ],
        };
      },
    );

  registerJsonResource(
    'system',
    'dcg://systems/{environment}/{systemId}',
    {
      title: 'Deployed system',
      description:
        'A deployed system (data product): its output ports with their data contracts, its components and their compliance',
    },
    async (uri, { environment, systemId }: Record<'environment' | 'systemId', string>, signal) => {
      const instance = await backend(() =>
        marketplace.getInstance(systemId, { environment, signal }),
      );
      if (!instance)
        throw new ResourceNotFoundError(uri.href, `${systemId} is not deployed in ${environment}`);
      const { view, deployed } = await backend(() =>
        readDeployedSystem(marketplace, instance, signal),
      );
      // The view for reading, and the descriptor itself as deployed (public info only).
      return {
        ...view,
        ...(deployed ? { planId: deployed.planId, descriptor: deployed.descriptor } : {}),
      };
    },
  );

  registerJsonResource(
    'data-contract',
    'dcg://data-contracts/{environment}/{contractId}',
    {
      title: 'Data contract',
      description:
        'A data contract (output port): its schema, SLA and terms, and its compliance with failing requirements',
    },
    async (
      uri,
      { environment, contractId }: Record<'environment' | 'contractId', string>,
      signal,
    ) => {
      const [compliance, instances] = await backend(() =>
        Promise.all([
          marketplace.getContractCompliance(contractId, environment, { signal }),
          marketplace.listInstances({ environment, signal }),
        ]),
      );
      const instance = instances.find((i) =>
        i.components.some((c) => c.id === contractId && c.dataContract),
      );
      if (!instance)
        throw new ResourceNotFoundError(
          uri.href,
          `${contractId} is not a deployed data contract in ${environment}`,
        );
      const { view } = await backend(() => readDeployedSystem(marketplace, instance, signal));
      const component = view.outputPorts.find((c) => c.id === contractId);
      return {
        contractId,
        environment,
        systemId: instance.systemId,
        systemName: instance.name,
        ...(component?.name === undefined ? {} : { name: component.name }),
        ...(component?.dataContract === undefined ? {} : { dataContract: component.dataContract }),
        compliance: complianceOutput(compliance),
        ...(view.note ? { note: view.note } : {}),
      };
    },
  );
}

function variable(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value.join(',') : (value ?? '');
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ToolInputError(`"${raw}" is not a valid URI component`);
  }
}

/** A backend failure while reading a resource becomes an error whose message a person understands. */
async function backend<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const failure = describeFailure(error);
    if (failure === undefined) throw error;
    throw new ToolInputError(failure);
  }
}
