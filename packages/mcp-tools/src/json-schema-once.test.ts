import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchemaOnce } from './json-schema-once';
import { recordRegistrations } from './recorded-registrations';
import type { ToolCallObservation } from './tool-call-observer';
import { toolOutputSchema } from './tool-output-schema';

const standard = (schema: unknown) =>
  (schema as { '~standard': { jsonSchema: { input: (p: object) => unknown } } })['~standard'];

describe('jsonSchemaOnce', () => {
  it('converts a zod schema and a z.toJSONSchema output once per target, and still validates', async () => {
    const input = z.object({ query: z.string().min(1) });
    const expected = z.toJSONSchema(input, { target: 'draft-2020-12', io: 'input' });
    const once = jsonSchemaOnce(input);
    expect(once).toBe(input);
    const first = standard(once).jsonSchema.input({ target: 'draft-2020-12' });
    expect(first).toEqual(expected);
    expect(standard(once).jsonSchema.input({ target: 'draft-2020-12' })).toBe(first);
    expect(standard(once).jsonSchema.input({ target: 'draft-07' })).not.toBe(first);
    expect(input.safeParse({ query: '' }).success).toBe(false);

    // The JSON Schema of z.toJSONSchema holds its `~standard` fixed: a copy carries the new one.
    const output = toolOutputSchema(z.object({ n: z.number() }));
    const outputOnce = jsonSchemaOnce(output);
    expect(outputOnce).toEqual(output);
    const a = standard(outputOnce).jsonSchema.input({ target: 'draft-2020-12' });
    expect(standard(outputOnce).jsonSchema.input({ target: 'draft-2020-12' })).toBe(a);
  });

  it('gives every per-request server the same tool schemas, and reports each call', async () => {
    const seen: ToolCallObservation[] = [];
    const replay = recordRegistrations(
      (server) =>
        server.registerTool(
          'echo',
          {
            description: 'Echoes',
            inputSchema: z.object({ text: z.string() }),
            outputSchema: z.object({ text: z.string() }),
          },
          async ({ text }) => ({ content: [], structuredContent: { text } }),
        ),
      (observation) => seen.push(observation),
    );
    const servers = [0, 1].map(() => {
      const server = new McpServer({ name: 't', version: '1' });
      replay(server);
      return server;
    });
    const tools = servers.map(
      (s) =>
        (s as unknown as { _registeredTools: Record<string, { inputSchema: unknown }> })
          ._registeredTools.echo!,
    );
    expect(tools[0]!.inputSchema).toBe(tools[1]!.inputSchema);
    const json = (t: { inputSchema: unknown }) =>
      standard(t.inputSchema).jsonSchema.input({ target: 'draft-2020-12' });
    expect(json(tools[0]!)).toBe(json(tools[1]!));

    const validate = (
      tools[0]!.inputSchema as { '~standard': { validate: (v: unknown) => unknown } }
    )['~standard'].validate;
    await validate({ text: 1 });
    expect(seen).toEqual([
      { tool: 'echo', outcome: 'invalid_params', code: 'invalid_params', durationSeconds: 0 },
    ]);
  });
});
