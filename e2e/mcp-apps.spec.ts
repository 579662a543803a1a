import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { expect, type Page, test } from '@playwright/test';
import { build } from 'esbuild';
import { connectMcpClient } from '../electron/host/mcp/mcp-testing.js';
import { serveDebuggeePage } from './support/debuggee-page.js';
import { grpcHar } from './support/grpc-har.js';
import { ROOT, startInspector } from './support/inspector.js';

// Issue 37 §5: the panels as MCP Apps, read over MCP and rendered in Chromium by a host built on
// the ext-apps SDK's own host side (AppBridge over postMessage), fed real tool results.

/** A minimal MCP Apps host: the view in a sandboxed frame, AppBridge speaking to it, tool calls back to the test. */
async function hostScript(): Promise<string> {
  const result = await build({
    stdin: {
      contents: `
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
window.showApp = async (html, args, result, theme) => {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.title = 'MCP App';
  frame.style.cssText = 'width: 860px; height: 120px; border: 1px solid #999';
  frame.srcdoc = html;
  document.body.append(frame);
  const bridge = new AppBridge(null, { name: 'porthole-e2e-host', version: '1.0.0' }, { serverTools: {} }, {
    hostContext: { theme, displayMode: 'inline', platform: 'desktop' },
  });
  bridge.oncalltool = (params) => window.portholeCallTool(params.name, params.arguments ?? {});
  bridge.onsizechange = ({ height }) => { if (height) frame.style.height = height + 'px'; };
  bridge.oninitialized = () => {
    window.appInitialized = true;
    bridge.sendToolInput({ arguments: args });
    bridge.sendToolResult(result);
  };
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
};`,
      resolveDir: ROOT,
      loader: 'js',
    },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'error',
  });
  return result.outputFiles[0]!.text;
}

/** axe-core over the host page and the view in its frame: no critical or serious violation. */
async function expectNoSeriousViolations(target: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page: target })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, what).toEqual([]);
}

const RENDERS_APPS = { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } };

test('the network list and the error groups render as MCP Apps from real tool results', async ({ page, browser }) => {
  const inspector = await startInspector();
  const served = await serveDebuggeePage({
    '/api/cart': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":2}'),
    '/api/checkout': (_req, res) => res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"db"}'),
  });
  const token = readFileSync(join(inspector.dataDir, 'mcp-token'), 'utf8').trim();
  const mcp = await connectMcpClient(
    'http',
    { mcpUrl: inspector.info.mcpUrl, dataDir: inspector.dataDir, token },
    { name: 'e2e-apps-host', version: '1.0.0' },
    RENDERS_APPS,
  );
  const hostContext = await browser.newContext({ viewport: { width: 900, height: 700 } });
  const host = await hostContext.newPage();
  const pageErrors: string[] = [];
  host.on('pageerror', (e) => pageErrors.push(e.message));
  try {
    // A real app with traffic and an error.
    await page.goto(served.pageUrl({ inspector: inspector.info.debuggeeUrl, plugins: ['network', 'console'] }));
    await expect(page.locator('#status')).toHaveText('connected');
    await page.evaluate(async () => {
      await fetch('/api/cart');
      await fetch('/api/checkout', { method: 'POST', body: '{}' });
      console.error('checkout failed: HTTP 500 from /api/checkout');
    });

    const { tools } = await mcp.client.listTools();
    const uiOf = (name: string) =>
      (tools.find((t) => t.name === name)?._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
    const networkUri = uiOf('network_list_transactions');
    const consoleUri = uiOf('console_list_errors');
    expect(networkUri).toBe('ui://porthole/network-requests.html');
    expect(consoleUri).toBe('ui://porthole/console-errors.html');

    const read = async (uri: string) => {
      const { contents } = await mcp.client.readResource({ uri });
      expect(contents[0]?.mimeType).toBe(RESOURCE_MIME_TYPE);
      return (contents[0] as { text: string }).text;
    };
    const call = async (name: string, args: Record<string, unknown>) =>
      (await mcp.client.callTool({ name, arguments: args })) as Record<string, unknown>;

    await expect
      .poll(async () => ((await call('network_list_transactions', {})).structuredContent as { total: number }).total)
      .toBe(2);
    await expect
      .poll(
        async () => ((await call('console_list_errors', {})).structuredContent as { groups: unknown[] }).groups.length,
      )
      .toBe(1);

    // The host: tool calls from a view go to the inspector through the test's MCP client.
    const calledBack: string[] = [];
    await host.exposeFunction('portholeCallTool', async (name: string, args: Record<string, unknown>) => {
      calledBack.push(name);
      return call(name, args);
    });
    const script = await hostScript();
    const show = async (target: Page, uri: string, tool: string, theme: 'light' | 'dark' = 'light') => {
      await target.setContent('<!doctype html><html lang="en"><head><title>host</title></head><body></body></html>');
      await target.addScriptTag({ content: script });
      const html = await read(uri);
      const result = await call(tool, {});
      await target.evaluate(
        ([h, r, t]) =>
          (window as unknown as { showApp(h: string, a: object, r: unknown, t: string): Promise<void> }).showApp(
            h,
            {},
            r,
            t,
          ),
        [html, result, theme] as const,
      );
      await target.waitForFunction(() => (window as unknown as { appInitialized?: boolean }).appInitialized === true);
      return target.frameLocator('iframe');
    };

    // The network list: the panel's table, the failed request flagged, a row opened through the host.
    const net = await show(host, networkUri!, 'network_list_transactions');
    await expect(net.getByTestId('mcp-app-summary')).toContainText('2');
    const rows = net.getByTestId('network-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText('/api/cart');
    await expect(rows.nth(0)).toContainText('200');
    await expect(rows.nth(1)).toContainText('/api/checkout');
    await expect(rows.nth(1)).toContainText('500');
    await expect(rows.nth(1)).toContainText('POST');
    await rows.nth(1).click();
    const detail = net.getByTestId('mcp-app-detail');
    await expect(detail).toContainText('POST');
    await expect(detail).toContainText('/api/checkout');
    await expect(detail).toContainText('500 Internal Server Error');
    await expect(detail.getByRole('region', { name: 'Response body', exact: true })).toContainText('db');
    await expect(detail).toContainText('content-type');
    expect(calledBack).toEqual(['network_get_transaction']);
    await host.screenshot({ path: test.info().outputPath('mcp-app-network.png') });
    await expectNoSeriousViolations(host, 'network requests, light');

    // The error groups: the console's error, its count, opened to its last occurrence.
    const errors = await show(host, consoleUri!, 'console_list_errors');
    const groups = errors.getByTestId('console-error-group');
    await expect(groups).toHaveCount(1);
    await expect(groups.first()).toContainText('checkout failed: HTTP 500 from /api/checkout');
    await expect(groups.first()).toContainText('×1');
    await groups.first().click();
    await expect(errors.getByTestId('mcp-app-message')).toContainText('checkout failed: HTTP 500 from /api/checkout');
    expect(calledBack).toEqual(['network_get_transaction', 'console_get_message']);
    await host.screenshot({ path: test.info().outputPath('mcp-app-console.png') });
    await expectNoSeriousViolations(host, 'console errors, light');

    // Both views in the dark theme the host asks for: readable, and axe-core clean too.
    const dark = await show(host, networkUri!, 'network_list_transactions', 'dark');
    await expect(dark.getByTestId('network-row')).toHaveCount(2);
    await expect(dark.locator('html')).toHaveAttribute('data-theme', 'dark');
    await dark.getByTestId('network-row').nth(1).click();
    await expect(dark.getByTestId('mcp-app-detail')).toContainText('500 Internal Server Error');
    await expectNoSeriousViolations(host, 'network requests, dark');
    await host.screenshot({ path: test.info().outputPath('mcp-app-network-dark.png') });
    await show(host, consoleUri!, 'console_list_errors', 'dark');
    await expectNoSeriousViolations(host, 'console errors, dark');

    // A gRPC answer (read from a HAR): its status and its trailers in the opened request.
    const imported = await call('network_import_har', { har: grpcHar(), source: 'grpc.har' });
    expect(imported.structuredContent).toMatchObject({ imported: 1 });
    const withGrpc = await show(host, networkUri!, 'network_list_transactions');
    const grpcRow = withGrpc.getByTestId('network-row').filter({ hasText: 'shop.Cart/Get' });
    await expect(grpcRow).toHaveCount(1);
    await grpcRow.click();
    const grpcDetail = withGrpc.getByTestId('mcp-app-detail');
    await expect(grpcDetail).toContainText('gRPC status 14 UNAVAILABLE: cart service unavailable');
    const trailers = grpcDetail.getByRole('region', { name: 'Response trailers' });
    await expect(trailers).toContainText('grpc-status');
    await expect(trailers).toContainText('cart service unavailable');
    await expectNoSeriousViolations(host, 'a gRPC request, light');
    await host.screenshot({ path: test.info().outputPath('mcp-app-network-grpc.png') });
    expect(pageErrors).toEqual([]);
  } finally {
    await hostContext.close();
    await mcp.close();
    await served.close();
    await inspector.stop();
  }
});
