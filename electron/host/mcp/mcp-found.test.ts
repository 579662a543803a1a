import { Client as ModernClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { connect } from '../../../agent/connection.js';
import { example } from '../../../plugins/example/agent/index.js';
import { ALWAYS_LOAD_META, MAX_RESULT_SIZE_META } from '../../../shared/tool.js';
import { cleanupAfterEach } from '../test-cleanup.js';
import { startTestCore, waitFor } from '../testing.js';
import { INSTRUCTIONS } from './mcp-server-factory.js';
import { connectMcpClient, connectModernClient } from './mcp-testing.js';

// Issue 37 §1: found by every client — entry tools loaded at once, instructions, every version in
// server/discover, and a one-line summary first in every structured answer.
describe('found by every client', () => {
  const defer = cleanupAfterEach();

  async function setup() {
    const t = await startTestCore();
    defer(() => t.stop());
    const target = { mcpUrl: t.urls.mcpUrl, dataDir: t.dataDir, token: t.core.mcp.token() };
    return { t, target };
  }

  it('marks the entry tools alwaysLoad, the large-answer tools with maxResultSizeChars, and says where to start', async () => {
    const { target } = await setup();
    const legacy = await connectMcpClient('http', target);
    defer(() => legacy.close());
    expect(legacy.client.getInstructions()).toBe(INSTRUCTIONS);
    expect(INSTRUCTIONS).toMatch(/inspector_debug_bundle/);
    expect(INSTRUCTIONS).toMatch(/nextCursor/);
    const { tools } = await legacy.client.listTools();
    const entry = tools.filter((tool) => tool._meta?.[ALWAYS_LOAD_META] === true).map((tool) => tool.name);
    expect(entry.sort()).toEqual(['console_list_errors', 'inspector_debug_bundle', 'inspector_list_sessions']);
    const large = tools.filter((tool) => typeof tool._meta?.[MAX_RESULT_SIZE_META] === 'number').map((t) => t.name);
    expect(large).toEqual(expect.arrayContaining(['network_get_transaction', 'console_get_message']));
    // Every declared answer has the summary, required and first.
    for (const tool of tools.filter((tool) => tool.outputSchema)) {
      expect(Object.keys(tool.outputSchema!.properties ?? {})[0], tool.name).toBe('summary');
      expect(tool.outputSchema!.required, tool.name).toContain('summary');
    }
  });

  it('server/discover names every protocol version the endpoint serves, and a v2 client left to negotiate still picks 2026-07-28', async () => {
    const { t, target } = await setup();
    const headers = {
      authorization: `Bearer ${target.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'server/discover',
    };
    const response = await fetch(t.urls.mcpUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { supportedVersions: string[]; instructions?: string } };
    expect(body.result.supportedVersions).toEqual(
      expect.arrayContaining(['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']),
    );
    expect(body.result.supportedVersions[0]).toBe('2026-07-28');
    expect(body.result.instructions).toBe(INSTRUCTIONS);

    const negotiating = new ModernClient(
      { name: 'negotiating', version: '2.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await negotiating.connect(
      new StreamableHTTPClientTransport(new URL(t.urls.mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${target.token}` } },
      }),
    );
    defer(() => negotiating.close());
    expect(negotiating.getProtocolEra()).toBe('modern');
  });

  it('puts a one-line summary first in every structured answer, in both eras, and a list says what comes next', async () => {
    const { t, target } = await setup();
    for (const id of ['a', 'b', 'c']) {
      const agent = connect({ url: t.urls.debuggeeUrl, app: { id: `com.test.${id}`, name: id }, plugins: [example()] });
      defer(() => agent.disconnect());
      await waitFor(() => agent.status.sessionId, `agent ${id}`);
    }
    const legacy = await connectMcpClient('http', target);
    const modern = await connectModernClient('http', target);
    defer(() => legacy.close());
    defer(() => modern.close());
    for (const client of [legacy.client, modern.client] as const) {
      const page = (await client.callTool({ name: 'inspector_list_sessions', arguments: { limit: 2 } })) as {
        structuredContent: { summary: string; nextCursor: string };
        content: { text: string }[];
      };
      const { summary, nextCursor } = page.structuredContent;
      expect(summary).toContain('2 sessions of 3');
      expect(summary).toContain(`call inspector_list_sessions again with cursor "${nextCursor}"`);
      expect(summary).not.toMatch(/\n/);
      expect(page.content[0]!.text.startsWith('{"summary":')).toBe(true);
      const last = (await client.callTool({
        name: 'inspector_list_sessions',
        arguments: { limit: 2, cursor: nextCursor },
      })) as { structuredContent: { summary: string } };
      expect(last.structuredContent.summary).toMatch(/1 sessions of 3\. That is all/);
    }
  });
});
