import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { connectMcpClient, type McpTransportKind } from '../electron/host/mcp/mcp-testing.js';
import { decodePng } from './png.js';
import { serveDebuggeePage } from './support/debuggee-page.js';
import { startInspector } from './support/inspector.js';

for (const kind of ['http', 'stdio'] as McpTransportKind[]) {
  test(`ui_screenshot over MCP (${kind}) returns a PNG of the browser debuggee that decodes`, async ({ page }) => {
    const inspector = await startInspector();
    const served = await serveDebuggeePage();
    const mcp = await connectMcpClient(kind, {
      mcpUrl: inspector.info.mcpUrl,
      dataDir: inspector.dataDir,
      token: readFileSync(join(inspector.dataDir, 'mcp-token'), 'utf8').trim(),
    });
    try {
      await page.setViewportSize({ width: 640, height: 400 });
      await page.goto(
        served.pageUrl({ inspector: inspector.info.debuggeeUrl, appName: 'Screenshot Page', plugins: ['ui'] }),
      );
      await expect(page.locator('#status')).toHaveText('connected');

      const result = await mcp.client.callTool({ name: 'ui_screenshot', arguments: {} });
      const content = result.content as { type: string; data?: string; mimeType?: string; text?: string }[];
      expect(result.isError, JSON.stringify(content.filter((c) => c.type === 'text'))).toBeFalsy();
      expect(result.structuredContent).toBeUndefined();
      const image = content.find((c) => c.type === 'image')!;
      expect(image.mimeType).toBe('image/png');

      const png = decodePng(Buffer.from(image.data!, 'base64'));
      expect(png.width).toBeGreaterThanOrEqual(300);
      expect(png.height).toBeGreaterThanOrEqual(100);
      // The page's background (#f6f7fb) is there, and so is something else (the card and its text).
      const colours = new Set<string>();
      for (let i = 0; i < png.pixels.length; i += png.channels) {
        colours.add(png.pixels.subarray(i, i + 3).toString('hex'));
      }
      expect(colours.has('f6f7fb')).toBe(true);
      expect(colours.size).toBeGreaterThan(2);
      expect(content.find((c) => c.type === 'text')?.text).toContain('Screenshot of Screenshot Page');
    } finally {
      await mcp.close();
      await served.close();
      await inspector.stop();
    }
  });
}
