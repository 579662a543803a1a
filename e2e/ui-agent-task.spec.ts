import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, test } from '@playwright/test';
import { startInspector } from './support/inspector.js';
import { serveUiApps } from './support/ui-apps.js';

// The debugging task, end to end, as an AI agent does it: the MCP SDK's own client (not
// Porthole's) against the real `porthole serve` process, and a shop page in Chromium whose cart
// request fails on load and whose rendering then throws. Find the failing request and its body,
// the uncaught error, mock the endpoint, reload through ui_navigate, verify nothing fails, take a
// screenshot: in at most 15 calls and 60 KB of answers, nothing reloaded by the harness.

const CALLS = 15;
const BYTES = 60 * 1024;

test('find, mock, reload, verify and screenshot a failing shop in ≤ 15 calls and ≤ 60 KB', async ({ page }) => {
  test.setTimeout(120_000);
  const served = await serveUiApps({
    '/api/cart': (_req, res) =>
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"cart service down"}'),
  });
  const inspector = await startInspector();
  const client = new Client({ name: 'agent-task', version: '1.0.0' });
  try {
    await page.goto(served.url('shop', inspector.info.debuggeeUrl));
    await expect(page.locator('#porthole-status')).toHaveText('connected');
    await expect(page.locator('#cart')).toHaveText('Loading the cart…');
    // The page's cart request has been answered (the agent's first call finds it at once).
    await expect
      .poll(() =>
        page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/api/cart'))),
      )
      .toBe(true);
    const token = readFileSync(join(inspector.dataDir, 'mcp-token'), 'utf8').trim();
    await client.connect(
      new StreamableHTTPClientTransport(new URL(inspector.info.mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const tally = { calls: 0, bytes: 0, log: [] as string[] };
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const bytes = Buffer.byteLength(JSON.stringify(result));
      tally.calls++;
      tally.bytes += bytes;
      tally.log.push(`${name} ${bytes} B${result.isError ? ' (error)' : ''}`);
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      return { result, text, structured: result.structuredContent as Record<string, never> | undefined };
    };

    // 1. What failed: the cart request, and its body.
    type Tx = { id: string; url: string; status?: number };
    let failing: Tx | undefined;
    await expect(async () => {
      const list = await call('network_list_transactions', { status: { min: 400, max: 599 } });
      failing = (list.structured?.transactions as unknown as Tx[] | undefined)?.find((t) =>
        t.url.endsWith('/api/cart'),
      );
      expect(failing?.status).toBe(500);
    }).toPass({ timeout: 10_000 });
    const detail = await call('network_get_transaction', { id: failing!.id });
    expect(detail.text).toContain('cart service down');

    // 2. The uncaught error it caused, at its line in the source.
    const errors = await call('console_list_errors');
    const group = ((errors.structured?.groups ?? []) as unknown as { text: string; site?: string }[]).find((g) =>
      g.text.includes("Cannot read properties of undefined (reading 'reduce')"),
    );
    expect(group?.text).toMatch(/^Uncaught \(in promise\) TypeError/);
    expect(group?.site).toMatch(/shop\.ts:\d+:\d+$/);

    // 3. Mock the endpoint, reload, and read what the new load did.
    const mocked = await call('network_add_mock_rule', {
      name: 'cart answers',
      match: { url: { kind: 'contains', value: '/api/cart' } },
      action: {
        type: 'respond',
        status: 200,
        body: {
          type: 'json',
          json: {
            items: [
              { name: 'tea', price: 4.5 },
              { name: 'cake', price: 8 },
            ],
          },
        },
      },
    });
    expect(mocked.result.isError ?? false, mocked.text).toBe(false);
    const reloaded = await call('ui_navigate', { to: 'reload' });
    expect(reloaded.result.isError ?? false, reloaded.text).toBe(false);
    expect(reloaded.text).toMatch(/^reloaded http:\/\/127\.0\.0\.1:\d+\/shop\.html\?.* \(load 2, \d+ ms\)/);
    test.info().annotations.push({ type: 'reload answer', description: reloaded.text });

    // 4. Verify: the page shows the cart, nothing failed in this load.
    const cart = await call('ui_wait_for', { text: '2 items, total 12.50', timeoutMs: 5000 });
    const seen = await call('ui_snapshot', { text: 'items' });
    const failedNow = await call('network_list_transactions', {
      status: { min: 400, max: 599 },
      since: Math.floor(await page.evaluate(() => performance.timeOrigin)),
    });
    const shot = await call('ui_screenshot');
    expect(shot.result.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });

    test.info().annotations.push({ type: 'calls', description: tally.log.join('; ') });
    test.info().annotations.push({ type: 'total', description: `${tally.calls} calls, ${tally.bytes} bytes` });
    console.log(`agent task: ${tally.calls} calls, ${(tally.bytes / 1024).toFixed(1)} KB\n  ${tally.log.join('\n  ')}`);
    console.log(`reload answer:\n${reloaded.text}`);
    expect(tally.calls).toBeLessThanOrEqual(CALLS);
    // The screenshot is most of it: every answer but the image fits in a few KB.
    expect(tally.bytes).toBeLessThanOrEqual(BYTES);

    // The verification tells the truth about the new load: what its requests got, what it threw.
    // Until §2 ("mocks in force from the first request") lands, the reloaded page's load-time cart
    // request can go out before the app has the rules: then the answer shows it failing again.
    const cartLine = reloaded.text.split('\n').find((l) => l.includes('/api/cart'));
    expect(cartLine).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/api\/cart → (200|500) \[/);
    if (cartLine?.includes('→ 200')) {
      expect(cart.text).toMatch(/appeared after \d+ ms: text "2 items, total 12\.50"/);
      expect(seen.text).toContain('2 items, total 12.50');
      expect(reloaded.text).not.toMatch(/failed|console errors/);
    } else {
      expect(cart.text).toMatch(
        /timed out after 5 s waiting for text "2 items, total 12\.50" to appear\. The page shows: .*Loading the cart…/,
      );
      expect(reloaded.text).toMatch(
        /requests: 1, 1 failed\n {2}GET .*\/api\/cart → 500 \[[^\]]+\]\nconsole errors: 1\n {2}Uncaught \(in promise\) TypeError/,
      );
      expect(failedNow.structured?.transactions).toHaveLength(1);
    }
  } finally {
    await client.close().catch(() => {});
    await inspector.stop();
    await served.close();
  }
});

// Issue 31 §2, not this branch's: a reloaded page's load-time request mocked by the rules already set.
test('a reloaded page is mocked from its first request (issue 31 §2)', async ({ page }) => {
  test.fail(true, 'mocks reach a reloaded page only after its first requests: issue 31 §2, another branch');
  const served = await serveUiApps({
    '/api/cart': (_req, res) => res.writeHead(500, { 'content-type': 'application/json' }).end('{}'),
  });
  const inspector = await startInspector();
  const client = new Client({ name: 'agent-task', version: '1.0.0' });
  try {
    await page.goto(served.url('shop', inspector.info.debuggeeUrl));
    await expect(page.locator('#porthole-status')).toHaveText('connected');
    const token = readFileSync(join(inspector.dataDir, 'mcp-token'), 'utf8').trim();
    await client.connect(
      new StreamableHTTPClientTransport(new URL(inspector.info.mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    await client.callTool({
      name: 'network_add_mock_rule',
      arguments: {
        match: { url: { kind: 'contains', value: '/api/cart' } },
        action: { type: 'respond', status: 200, body: { type: 'json', json: { items: [{ name: 'tea', price: 1 }] } } },
      },
    });
    await client.callTool({ name: 'ui_navigate', arguments: { to: 'reload' } });
    await expect(page.locator('#cart')).toHaveText('1 items, total 1.00', { timeout: 5000 });
  } finally {
    await client.close().catch(() => {});
    await inspector.stop();
    await served.close();
  }
});
