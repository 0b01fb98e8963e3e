import { fromJsonSchema, type McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** A 1×1 red PNG. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** A WAV header with no samples (44 bytes). */
const WAV = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([36, 0, 0, 0]),
  Buffer.from('WAVEfmt '),
  Buffer.from([16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1f, 0, 0, 0x80, 0x3e, 0, 0, 2, 0, 16, 0]),
  Buffer.from('data'),
  Buffer.from([0, 0, 0, 0]),
]).toString('base64');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The tools, resources and prompts the server scenarios of @modelcontextprotocol/conformance call
 * by name (its "everything server"), registered on the real app's MCP server through
 * `extendServer`, so that every scenario about a feature the server offers runs against it. Only
 * features the server offers: no logging, sampling, elicitation, completion or subscriptions.
 *
 * @example
 * await startMcpServer({ dataDir, config, extendServer: registerConformanceFixtures });
 */
export function registerConformanceFixtures(server: McpServer): void {
  const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
  server.registerTool('test_simple_text', { description: 'Answers simple text' }, async () =>
    text('This is a simple text response for testing.'),
  );
  server.registerTool('test_image_content', { description: 'Answers an image' }, async () => ({
    content: [{ type: 'image' as const, data: PNG, mimeType: 'image/png' }],
  }));
  server.registerTool('test_audio_content', { description: 'Answers audio' }, async () => ({
    content: [{ type: 'audio' as const, data: WAV, mimeType: 'audio/wav' }],
  }));
  server.registerTool(
    'test_embedded_resource',
    { description: 'Answers an embedded resource' },
    async () => ({
      content: [
        {
          type: 'resource' as const,
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    }),
  );
  server.registerTool(
    'test_multiple_content_types',
    { description: 'Answers text, an image and a resource' },
    async () => ({
      content: [
        { type: 'text' as const, text: 'Multiple content types test:' },
        { type: 'image' as const, data: PNG, mimeType: 'image/png' },
        {
          type: 'resource' as const,
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  );
  server.registerTool('test_error_handling', { description: 'Always fails' }, async () => {
    throw new Error('This tool intentionally returns an error for testing');
  });
  server.registerTool(
    'test_tool_with_progress',
    { description: 'Reports progress 0, 50 and 100 of 100' },
    async (ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (const progress of [0, 50, 100]) {
        if (progressToken !== undefined) {
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken, progress, total: 100 },
          });
        }
        if (progress < 100) await sleep(50);
      }
      return text('Progress reported');
    },
  );
  server.registerTool(
    'test_reconnection',
    { description: 'Answers after a short while (SSE polling)' },
    async () => {
      await sleep(100);
      return text('Reconnection test completed successfully');
    },
  );
  server.registerTool(
    'json_schema_2020_12_tool',
    {
      description: 'Tool with JSON Schema 2020-12 features',
      // The suite's schema (0.2: with $anchor, allOf/anyOf and if/then/else of SEP-2106).
      inputSchema: fromJsonSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            $anchor: 'addressDef',
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else, as the suite asks.
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      }),
    },
    async () => text('ok'),
  );

  server.registerResource(
    'static-text',
    'test://static-text',
    { description: 'A static text resource', mimeType: 'text/plain' },
    async (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'text/plain',
          text: 'This is the content of the static text resource.',
        },
      ],
    }),
  );
  server.registerResource(
    'static-binary',
    'test://static-binary',
    { description: 'A static binary resource', mimeType: 'image/png' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: PNG }] }),
  );
  server.registerResource(
    'template',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { description: 'A resource template', mimeType: 'application/json' },
    async (uri, { id }) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ],
    }),
  );

  server.registerPrompt('test_simple_prompt', { description: 'A simple prompt' }, async () => ({
    messages: [
      {
        role: 'user' as const,
        content: { type: 'text' as const, text: 'This is a simple prompt for testing.' },
      },
    ],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      description: 'A prompt with two arguments',
      argsSchema: z.object({ arg1: z.string(), arg2: z.string() }),
    },
    async ({ arg1, arg2 }) => ({
      messages: [
        {
          role: 'user' as const,
          content: {
            type: 'text' as const,
            text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
          },
        },
      ],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    {
      description: 'A prompt with an embedded resource',
      argsSchema: z.object({ resourceUri: z.string() }),
    },
    async ({ resourceUri }) => ({
      messages: [
        {
          role: 'user' as const,
          content: {
            type: 'resource' as const,
            resource: {
              uri: resourceUri,
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          },
        },
        {
          role: 'user' as const,
          content: { type: 'text' as const, text: 'Please process the embedded resource above.' },
        },
      ],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_image',
    { description: 'A prompt with an image' },
    async () => ({
      messages: [
        {
          role: 'user' as const,
          content: { type: 'image' as const, data: PNG, mimeType: 'image/png' },
        },
        {
          role: 'user' as const,
          content: { type: 'text' as const, text: 'Please analyze the image above.' },
        },
      ],
    }),
  );
}
