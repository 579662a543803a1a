import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, type Page, test } from '@playwright/test';
import { connectMcpClient } from '../electron/host/mcp/mcp-testing.js';
import { HarSchema } from '../plugins/network/har-schema.js';
import { serveDebuggeePage } from './support/debuggee-page.js';
import { type RunningInspector, startInspector } from './support/inspector.js';

// biome-ignore lint/suspicious/noExplicitAny: the test reads answers of many shapes
type Result = CallToolResult & { structuredContent?: Record<string, any> };

async function mcpFor(inspector: RunningInspector) {
  const token = readFileSync(join(inspector.dataDir, 'mcp-token'), 'utf8').trim();
  const mcp = await connectMcpClient('http', { mcpUrl: inspector.info.mcpUrl, dataDir: inspector.dataDir, token });
  await mcp.client.listTools();
  return {
    call: async (name: string, args: Record<string, unknown> = {}) =>
      (await mcp.client.callTool({ name, arguments: args })) as Result,
    close: () => mcp.close(),
  };
}

const text = (r: Result) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const fetchFromPage = (page: Page, path: string) =>
  page.evaluate(async (p) => {
    const started = performance.now();
    const r = await fetch(p);
    return { status: r.status, body: await r.text(), ms: performance.now() - started };
  }, path);

test('mock rules over MCP drive a real page, and survive a reload of the page and a restart of the inspector', async ({
  page,
}) => {
  let inspector = await startInspector();
  const served = await serveDebuggeePage({
    '/api/data': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('real data'),
  });
  let mcp = await mcpFor(inspector);
  try {
    const pageUrl = served.pageUrl({
      inspector: inspector.info.debuggeeUrl,
      plugins: ['network'],
      appId: 'com.e2e.mcp',
    });
    await page.goto(pageUrl);
    await expect(page.locator('#status')).toHaveText('connected');
    expect(await fetchFromPage(page, '/api/data')).toMatchObject({ status: 200, body: 'real data' });

    const added = await mcp.call('network_set_mock_rules', {
      op: 'add',
      rule: {
        name: 'data is down',
        match: { url: { kind: 'contains', value: '/api/data' } },
        action: { type: 'respond', status: 503, body: { type: 'json', json: { down: true } }, delayMs: 150 },
      },
    });
    expect(added.isError ?? false, text(added)).toBe(false);
    const ruleId = added.structuredContent!.rule.id;

    const mocked = await fetchFromPage(page, '/api/data');
    expect(mocked).toMatchObject({ status: 503, body: '{"down":true}' });
    expect(mocked.ms).toBeGreaterThanOrEqual(140);
    await expect.poll(async () => (await mcp.call('network_get_mock_config')).structuredContent!.hits[ruleId]).toBe(1);

    const listed = await mcp.call('network_list_transactions', { urlContains: '/api/data' });
    expect(listed.structuredContent!.transactions.map((t: { status: number }) => t.status)).toEqual([503, 200]);
    const har = await mcp.call('network_export_har', {});
    expect(HarSchema.safeParse(har.structuredContent).success).toBe(true);

    // The app restarts (page reload): its new agent gets the rules on connect.
    await page.reload();
    await expect(page.locator('#status')).toHaveText('connected');
    // The rules reach the new agent just after it connects; once it says it applied them, they answer.
    await expect
      .poll(async () => (await mcp.call('network_get_mock_config')).structuredContent!.sync.state)
      .toBe('applied');
    expect(await fetchFromPage(page, '/api/data')).toMatchObject({ status: 503 });

    // The inspector restarts on the same debuggee port and data dir; the page reconnects by itself.
    const port = new URL(inspector.info.debuggeeUrl).port;
    await mcp.close();
    await inspector.stop({ keepData: true });
    await expect(page.locator('#status')).not.toHaveText('connected');
    inspector = await startInspector({ dataDir: inspector.dataDir, args: ['--debuggee-port', port] });
    mcp = await mcpFor(inspector);
    await expect(page.locator('#status')).toHaveText('connected', { timeout: 15_000 });
    const config = await mcp.call('network_get_mock_config');
    expect(config.structuredContent).toMatchObject({ rules: [{ id: ruleId, name: 'data is down' }] });
    await expect.poll(async () => (await fetchFromPage(page, '/api/data')).status).toBe(503);

    const off = await mcp.call('network_set_mock_rules', { op: 'disable' });
    expect(off.isError ?? false, text(off)).toBe(false);
    expect(await fetchFromPage(page, '/api/data')).toMatchObject({ status: 200, body: 'real data' });
  } finally {
    await mcp.close().catch(() => {});
    await served.close();
    await inspector.stop();
  }
});
