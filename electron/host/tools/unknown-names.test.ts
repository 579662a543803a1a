import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connectMcpClient } from '../mcp/mcp-testing.js';
import { cleanupAfterEach } from '../test-cleanup.js';
import { startTestCore } from '../testing.js';

// Issue 30, stall 2: an unknown tool name cost ~2.8 µs per character (the closest-name search ran an
// edit distance over the whole name against every tool), so a 4 MB name blocked the inspector ~3 s,
// and the answer (and the history) quoted the whole name. Over-long names are refused at once.

const textOf = (r: Record<string, unknown>) =>
  ((r.content as { type: string; text?: string }[] | undefined) ?? []).map((b) => b.text ?? '').join('\n');

describe('unknown names, from an MCP client over HTTP', () => {
  const defer = cleanupAfterEach();

  async function connected() {
    const t = await startTestCore();
    defer(() => t.stop());
    const { client, close } = await connectMcpClient('http', {
      mcpUrl: t.urls.mcpUrl,
      dataDir: t.dataDir,
      token: t.core.mcp.token(),
    });
    defer(close);
    return { t, client };
  }

  it('refuses a 3 MB tool name in constant time, quoting only its start; a slip still gets the closest name', async () => {
    const { t, client } = await connected();
    const long = `inspector_${'x'.repeat(3_000_000)}`;
    for (let i = 0; i < 4; i++) {
      const error = await client
        .request({ method: 'tools/call', params: { name: long, arguments: {} } }, CallToolResultSchema)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
      expect((error as McpError).message).toMatch(
        /there is no tool named "inspector_x{54}…" \(3000010 characters; a tool name has at most 64\); call tools\/list/,
      );
      expect((error as McpError).message.length).toBeLessThan(300);
    }
    const recorded = t.core.history.list(1)[0]!;
    expect(recorded.error!.length).toBeLessThan(300);

    const slip = await client
      .request({ method: 'tools/call', params: { name: 'inspector_get_stauts', arguments: {} } }, CallToolResultSchema)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((slip as McpError).message).toMatch(/\(did you mean "inspector_get_status"\?\)/);
  });

  it('refuses over-long and very many unknown argument keys quickly, naming a few', async () => {
    const { client } = await connected();
    const longKey = { [`k${'y'.repeat(3_000_000)}`]: 1 };
    for (let i = 0; i < 4; i++) {
      const result = await client.callTool({ name: 'inspector_get_status', arguments: longKey });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/unknown argument "ky{63}…" \(3000001 characters\); the allowed keys are/);
      expect(textOf(result).length).toBeLessThan(600);
    }
    const many = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`key${i}`, i]));
    const result = await client.callTool({ name: 'inspector_get_status', arguments: many });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/unknown arguments "key0", "key1", "key2", "key3", "key4" and 49995 more;/);
    expect(textOf(result).length).toBeLessThan(600);
  });
});
