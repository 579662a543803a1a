import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { connect } from '../../agent/connection.js';
import { console as consolePlugin } from '../../plugins/console/agent/index.js';
import { network } from '../../plugins/network/agent/index.js';
import { httpServer } from '../../plugins/network/host/testing.js';
import type { CallDetail } from '../../shared/call-record.js';
import { exportRecordedTest } from '../../shared/recorded-test.js';
import { connectMcpClient } from '../host/mcp/mcp-testing.js';
import { cleanupAfterEach } from '../host/test-cleanup.js';
import { startTestCore, waitFor } from '../host/testing.js';
import * as client from './index.js';

const defer = cleanupAfterEach();

/**
 * An AI agent's session over MCP (HTTP, its answers the MCP projections), as the history keeps it:
 * it finds the failing request, reads it, mocks the endpoint, looks at errors, and tries an id that does not exist.
 */
async function recordSession() {
  const t = await startTestCore();
  defer(() => t.stop());
  const server = await httpServer((req, res) =>
    res.writeHead(req.url === '/api/cart' ? 500 : 200).end(`real ${req.url}`),
  );
  defer(() => server.close());
  const net = network({ ignoreUrls: [t.urls.mcpUrl] });
  const logs = consolePlugin({ flushMs: 5 });
  defer(() => logs.dispose());
  defer(() => net.dispose());
  const agent = connect({ url: t.urls.debuggeeUrl, app: { id: 'com.test.shop', name: 'Shop' }, plugins: [net, logs] });
  defer(() => agent.disconnect());
  await waitFor(() => agent.status.state === 'connected', 'the agent');
  await (await fetch(`${server.url}/api/cart`)).text();
  await (await fetch(`${server.url}/api/user`)).text();

  const target = { mcpUrl: t.urls.mcpUrl, dataDir: t.dataDir, token: t.core.mcp.token() };
  const mcp = await connectMcpClient('http', target, { name: 'claude-code', version: '2.1.0' });
  defer(() => mcp.close());
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const answer = await mcp.client.callTool({ name, arguments: args });
    return answer.structuredContent as Record<string, { id: string }[] & { id: string }>;
  };
  await call('inspector_list_sessions');
  await waitFor(
    async () => (await call('network_list_transactions', { urlContains: '/api/' })).transactions.length === 2,
  );
  const failing = await call('network_list_transactions', { status: { min: 400, max: 599 } });
  await call('network_get_transaction', { id: (failing.transactions as { id: string }[])[0]!.id });
  const rule = await call('network_set_mock_rules', {
    op: 'add',
    rule: {
      match: { url: { kind: 'contains', value: '/api/cart' } },
      action: { type: 'respond', status: 200, body: { type: 'json', json: { items: [] } } },
    },
  });
  await call('network_set_mock_rules', { op: 'remove', id: (rule.rule as { id: string }).id });
  await call('console_list_errors');
  await call('network_get_transaction', { id: 'no-such-transaction' });

  const summaries = t.core.history.list().filter((c) => c.client?.name === 'claude-code');
  const calls = summaries.map((c) => t.core.history.get(c.id)) as CallDetail[];
  const inspector = await client.connectInspector({ dataDir: t.dataDir });
  defer(() => inspector.close());
  const sessions = (await inspector.listSessions()).sessions;
  const tools = (await mcp.client.listTools()).tools;
  return { t, server, calls, sessions, tools, inspector };
}

/**
 * Runs an exported Vitest file here, against the same inspector: its imports become this
 * process's client and Vitest's expect, its test() runs at once.
 */
async function runExported(code: string, dataDir: string): Promise<void> {
  const { code: js } = await transform(code, { loader: 'ts', format: 'esm', target: 'es2022' });
  const tests: (() => Promise<void>)[] = [];
  const after: (() => Promise<void>)[] = [];
  const before: (() => Promise<void>)[] = [];
  const vitest = {
    expect,
    test: (_title: string, fn: () => Promise<void>) => tests.push(fn),
    beforeAll: (fn: () => Promise<void>) => before.push(fn),
    afterAll: (fn: () => Promise<void>) => after.push(fn),
  };
  const porthole = { ...client, connectInspector: () => client.connectInspector({ dataDir }) };
  const body = js
    .replace(/^import .* from "porthole\/client";$/m, 'const { connectInspector, ToolCallError } = porthole;')
    .replace(/^import .* from "vitest";$/m, 'const { afterAll, beforeAll, expect, test } = vitest;');
  const run = new Function('porthole', 'vitest', `return (async () => {\n${body}\n})();`);
  await run(porthole, vitest);
  try {
    for (const f of before) await f();
    for (const f of tests) await f();
  } finally {
    for (const f of after) await f();
  }
}

describe('a recorded session becomes a test', () => {
  it('replays the calls with the ids one call answered as variables of the next, and checks what they answered', async () => {
    const { t, server, calls, sessions, tools } = await recordSession();
    const exported = exportRecordedTest({ framework: 'vitest', calls, sessions, tools });
    const { code } = exported;
    expect(exported.replayed).toBe(7);
    expect(exported.skipped).toEqual([
      { id: expect.any(String), tool: 'inspector_list_sessions', reason: expect.stringMatching(/finds its session/) },
    ]);
    expect(code).toContain("import { connectInspector, type Inspector, ToolCallError } from 'porthole/client';");
    expect(code).toContain('inspector.session((await inspector.waitForSession({ appId: "com.test.shop" })).id)');
    // The id the list answered is read from its answer, by what tells the request apart.
    expect(code).toContain(
      `id: r2.transactions.find((x) => x.method === "GET" && x.url === "${server.url}/api/cart" && x.status === 500)!.id,`,
    );
    expect(code).toContain('porthole.network.setMockRules({ op: "remove", id: r4.rule!.id })');
    // A read is checked for what it answered, without ids and times; a failure fails again.
    expect(code).toMatch(/status: 500/);
    expect(code).not.toMatch(/startedAt|durationMs/);
    expect(code).toContain(
      'await expect(porthole.callRaw("network_get_transaction", { id: "no-such-transaction" })).rejects.toThrow(ToolCallError);',
    );
    // It runs green against the same app…
    await runExported(code, t.dataDir);
    // …and fails when the app did not do the same: its requests are gone.
    await (await client.connectInspector({ dataDir: t.dataDir })).network.clearTransactions();
    const quick = code.replace('timeout: 10_000', 'timeout: 300');
    await expect(runExported(quick, t.dataDir)).rejects.toThrow(/toMatchObject|expected/);
  });

  it('exports a Playwright test for the page’s session, its origin a constant, other sessions left out', async () => {
    const calls: CallDetail[] = [
      call(
        'c1',
        'network_list_transactions',
        's1',
        { urlContains: 'http://127.0.0.1:5173/api' },
        {
          transactions: [
            { id: 'k1-1', seq: 1, method: 'GET', url: 'http://127.0.0.1:5173/api/cart', status: 200, startedAt: 1 },
          ],
        },
      ),
      call('c2', 'console_clear', 's2', {}, { cleared: 0 }),
      call('c3', 'ui_click', 's1', { selector: '#pay' }, { clicked: true }),
    ];
    const sessions = [
      {
        id: 's1',
        app: { id: 'com.shop', name: 'Shop' },
        device: { id: 'd1', name: 'Chrome', page: { url: 'http://127.0.0.1:5173/cart?x=1' } },
      },
      { id: 's2', app: { id: 'com.admin', name: 'Admin' }, device: { id: 'd2', name: 'Chrome' } },
    ];
    const tools = [
      { name: 'network_list_transactions', annotations: { readOnlyHint: true } },
      { name: 'console_clear', annotations: {} },
      { name: 'ui_click', annotations: { readOnlyHint: false } },
    ];
    const { code, skipped } = exportRecordedTest({ framework: 'playwright', calls, sessions, tools, title: 'pays' });
    expect(skipped).toEqual([{ id: 'c2', tool: 'console_clear', reason: expect.stringMatching(/another session/) }]);
    expect(code).toContain("import { expect, test } from 'porthole/playwright';");
    expect(code).not.toContain('ToolCallError');
    expect(code).toContain('const origin = "http://127.0.0.1:5173";');
    // The generated code's own template strings, as text.
    const origin = (path: string) => `\`\${origin}${path}\``;
    expect(code).toContain(`test("pays", async ({ page, porthole }) => {\n  await page.goto(${origin('/cart?x=1')});`);
    expect(code).toContain(`porthole.network.listTransactions({ urlContains: ${origin('/api')} })`);
    expect(code).toContain(`url: ${origin('/api/cart')}`);
    // A tool the typed client does not know is called by name.
    expect(code).toContain('await porthole.callRaw("ui_click", { selector: "#pay" });');
    expect(code).toContain('async function answered<T>');
  });
});

function call(
  id: string,
  tool: string,
  sessionId: string,
  args: unknown,
  structured: Record<string, unknown>,
): CallDetail {
  return {
    id,
    tool,
    plugin: tool.split('_')[0],
    sessionId,
    surface: 'mcp-http',
    client: { name: 'cursor', version: '1.0' },
    startedAt: Number(id.slice(1)),
    durationMs: 3,
    status: 'succeeded',
    args,
    result: {
      content: [{ type: 'text', text: JSON.stringify(structured) }],
      structuredContent: structured,
      isError: false,
    },
  };
}
