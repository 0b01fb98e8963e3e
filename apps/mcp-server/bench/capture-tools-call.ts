import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/** An HTTP request as a bench replays it with plain fetch or node:http. */
export interface CapturedRequest {
  headers: Record<string, string>;
  body: string;
}

/**
 * Calls one tool with the MCP SDK's client and answers the HTTP request it sent for the
 * tools/call, so that a bench can replay that request without the client's own work (the server
 * is stateless: no session is needed). Shared by bench/tools-call.ts and
 * bench/probes-under-load.ts.
 */
export async function captureToolsCall(
  mcpUrl: string,
  accessToken: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<CapturedRequest> {
  let captured: CapturedRequest | undefined;
  const capturing = new Client(
    { name: 'bench-capture', version: '1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await capturing.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (request.method === 'POST') {
          const body = await request.clone().text();
          if (body.includes('"tools/call"'))
            captured = { headers: Object.fromEntries(request.headers), body };
        }
        return fetch(request);
      },
    }),
  );
  try {
    const result = await capturing.callTool({ name: tool, arguments: args });
    if (result.isError) throw new Error(`${tool}: ${JSON.stringify(result.content)}`);
  } finally {
    await capturing.close();
  }
  if (!captured) throw new Error(`no tools/call request was sent for ${tool}`);
  return captured;
}
