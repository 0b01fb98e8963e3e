import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A small real HTTP server on 127.0.0.1 for upstream behaviours (slow, broken, adapters). */
export async function startTestServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const SKOS = 'http://www.w3.org/2004/02/skos/core#';

/** A short SKOS vocabulary in Turtle. */
export const TURTLE = `@prefix skos: <${SKOS}> .
@prefix ex: <https://ex.org/> .
ex:water skos:prefLabel "Water"@en ; skos:definition "A clear liquid"@en .
ex:water-quality skos:prefLabel "Water quality"@en ; skos:broader ex:water .
ex:river skos:prefLabel "River"@en ; skos:note "flows into the sea with water"@en .
`;
