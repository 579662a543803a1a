import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { expect, test } from '@playwright/test';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { connect } from '../agent/index.js';
import { builtinPlugins } from '../electron/host/core.js';
import { connectMcpClient, connectModernClient } from '../electron/host/mcp/mcp-testing.js';
import { ONE_SHOT_PRESENCE_MS } from '../electron/host/mcp/stateless-clients.js';
import { startTestCore } from '../electron/host/testing.js';
import { testPlugin } from './fixtures/plugins/test/agent/index.js';
import fixtureTestPlugin, { FIXTURE_SCENARIOS } from './fixtures/plugins/test/host/index.js';
import { type AgentApp, startAgentApp } from './support/agent-app-process.js';
import { APPLIES, checkDoesNotApply, whyNotApplicable } from './support/conformance-scenarios.js';
import { ROOT, type RunningInspector, startInspector } from './support/inspector.js';
import {
  conformanceScenarios,
  type McpTools,
  mcpTools,
  runConformance,
  runWithNode22,
  type ToolRun,
} from './support/mcp-tools.js';

// Porthole's MCP server checked with the tools real users point at it, installed from the registry
// outside the repo (e2e/support/mcp-tools.ts): the MCP conformance suite, the MCP Inspector's CLI
// over HTTP and stdio, one-shot SDK clients that leave without ending their session, mcp-remote. Against
// real `porthole serve` processes and a real app (e2e/support/agent-app.ts) that made 500 requests.

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const TRANSACTIONS = 500;
const RESULT_CAP = 25 * 1024;
const TOOLS_LIST_CAP = 36 * 1024; // with every built-in plugin (DESIGN.md, MCP)
const APP_ID = 'com.e2e.outside-mcp';

let tools: McpTools;
/** `--mcp-auth none`, for the conformance suite (it sends no token). */
let open: RunningInspector;
/** The default: the bearer token in <data-dir>/mcp-token. */
let guarded: RunningInspector;
let token: string;
let app: AgentApp;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const installing = mcpTools();
  installing.catch(() => {}); // awaited below, once both inspectors are kept for afterAll to stop
  const started = await Promise.allSettled([startInspector({ args: ['--mcp-auth', 'none'] }), startInspector()]);
  [open, guarded] = started.map((s) => (s.status === 'fulfilled' ? s.value : undefined)) as RunningInspector[];
  for (const s of started) if (s.status === 'rejected') throw s.reason;
  tools = await installing;
  token = readFileSync(join(guarded.dataDir, 'mcp-token'), 'utf8').trim();
  app = await startAgentApp(guarded.info.debuggeeUrl, { requests: TRANSACTIONS, appId: APP_ID });
});

test.afterAll(async () => {
  await app?.stop();
  await Promise.all([open?.stop(), guarded?.stop()]);
});

// biome-ignore lint/suspicious/noExplicitAny: answers of many shapes
type Result = CallToolResult & { structuredContent?: Record<string, any> };
const bytes = (value: unknown) => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value)));
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** Every failing check of the scenarios that apply, and every scenario nobody classified. */
async function conformanceFailures(which: 'stable' | 'next', specVersion: string, args: string[]) {
  const listed = (await conformanceScenarios(tools, which)).filter((s) => s.specVersions.includes(specVersion));
  const ran = await runConformance(tools, which, open.info.mcpUrl, args);
  const problems: string[] = [];
  const passed: string[] = [];
  for (const { name } of listed) {
    if (whyNotApplicable(name)) continue;
    if (!APPLIES.has(name)) {
      problems.push(`${name}: a scenario not classified yet (e2e/support/conformance-scenarios.ts)`);
      continue;
    }
    const checks = ran.results.get(name);
    if (!checks) {
      problems.push(`${name}: did not run`);
      continue;
    }
    const failed = checks.filter((c) => c.status === 'FAILURE' && !checkDoesNotApply(name, c));
    for (const c of failed) problems.push(`${name} / ${c.id}: ${c.errorMessage ?? 'failed'}`);
    if (failed.length === 0) passed.push(name);
    // SHOULDs the server does not meet: shown in the report, not failures.
    for (const c of checks.filter((c) => c.status === 'WARNING'))
      test
        .info()
        .annotations.push({ type: 'conformance warning', description: `${name} / ${c.id}: ${c.errorMessage}` });
  }
  test.info().annotations.push({ type: 'conformance passed', description: passed.join(', ') });
  return { problems, passed };
}

test('the conformance suite 0.1.16 (2025-11-25): every scenario that applies passes', async () => {
  const { problems, passed } = await conformanceFailures('stable', '2025-11-25', ['--suite', 'all']);
  expect(problems).toEqual([]);
  expect(passed).toEqual(
    expect.arrayContaining(['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection']),
  );
});

test('the conformance suite 0.2.0-alpha.12 in the 2025-11-25 era: every scenario that applies passes', async () => {
  const { problems, passed } = await conformanceFailures('next', '2025-11-25', [
    '--suite',
    'all',
    '--spec-version',
    '2025-11-25',
  ]);
  expect(problems).toEqual([]);
  expect(passed).toEqual(expect.arrayContaining(['server-initialize', 'server-session-lifecycle', 'tools-list']));
});

test('the conformance suite 0.2.0-alpha.12 in the 2026-07-28 era: every scenario that applies passes', async () => {
  const { problems, passed } = await conformanceFailures('next', '2026-07-28', [
    '--suite',
    'all',
    '--spec-version',
    '2026-07-28',
  ]);
  expect(problems).toEqual([]);
  expect(passed).toEqual(expect.arrayContaining(['server-stateless', 'tools-list']));
});

test("the suite's tools-call scenarios pass against their fixture tools, made with Porthole's tool layer, in each era", async () => {
  // The fixture plugin (e2e/fixtures/plugins/test/) on an in-process core with an app that has it:
  // the product has no such tools, so these scenarios are in DOES_NOT_APPLY for the real inspector.
  const t = await startTestCore({ mcp: { auth: 'none' }, plugins: [...builtinPlugins, fixtureTestPlugin] });
  const agent = connect({
    url: t.urls.debuggeeUrl,
    app: { id: 'com.e2e.conformance', name: 'Fixtures' },
    plugins: [testPlugin()],
  });
  try {
    await expect.poll(() => agent.status.state, { timeout: 30_000 }).toBe('connected'); // seconds under load
    // What the suite's checks do not look at: the answers are what the tools made, not a failure.
    const mcp = await connectMcpClient('http', { mcpUrl: t.urls.mcpUrl, dataDir: t.dataDir });
    const answers = await Promise.all(
      ['test_simple_text', 'test_image_content', 'test_error_handling'].map((name) =>
        mcp.client.callTool({ name, arguments: {} }),
      ),
    );
    await mcp.close();
    expect(answers).toEqual([
      { content: [{ type: 'text', text: 'This is a simple text response for testing.' }], isError: false },
      { content: [{ type: 'image', data: expect.any(String), mimeType: 'image/png' }], isError: false },
      { content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }], isError: true },
    ]);
    const runs = [
      ['stable', '2025-11-25'],
      ['next', '2025-11-25'],
      ['next', '2026-07-28'],
    ] as const;
    const problems: string[] = [];
    for (const [which, specVersion] of runs) {
      const ran = await runConformance(tools, which, t.urls.mcpUrl, ['--suite', 'all', '--spec-version', specVersion]);
      for (const scenario of FIXTURE_SCENARIOS) {
        const checks = ran.results.get(scenario);
        if (!checks) problems.push(`${which} ${specVersion} ${scenario}: did not run`);
        for (const c of checks?.filter((c) => c.status === 'FAILURE') ?? [])
          problems.push(`${which} ${specVersion} ${scenario} / ${c.id}: ${c.errorMessage}`);
      }
    }
    expect(problems).toEqual([]);
  } finally {
    agent.disconnect();
    await t.stop();
  }
});

/** The MCP Inspector's CLI (`mcp-inspector --cli …`), with its exit code and output. */
function inspectorCli(target: string[], args: string[]): Promise<ToolRun> {
  // The server last: a stdio server's command line follows `--`.
  return runWithNode22(tools, [tools.inspector, '--cli', ...args, '--format', 'json', '-q', ...target], {
    timeoutMs: 30_000,
  });
}

/** The answer of a successful Inspector CLI run (`--format json` prints `{ "result": … }`). */
function answerOf(run: ToolRun): Result & { tools: Tool[] } {
  expect(run.code, `${run.stdout}${run.stderr}`).toBe(0);
  const printed = JSON.parse(run.stdout) as { result?: Result & { tools: Tool[] } };
  if (!printed.result) throw new Error(`no result in ${run.stdout}`);
  return printed.result;
}

// --server-url, not a positional URL: --header takes every value after it.
const overHttp = (bearer = token) => [
  '--transport',
  'http',
  '--server-url',
  guarded.info.mcpUrl,
  '--header',
  `Authorization: Bearer ${bearer}`,
];
const overStdio = () => [
  '--transport',
  'stdio',
  '--cwd',
  ROOT,
  '--',
  process.execPath,
  join(ROOT, 'bin/porthole.js'),
  'mcp',
  '--data-dir',
  guarded.dataDir,
];

/** What a 1.x SDK client over HTTP lists: the reference the other clients are held to. */
async function sdkTools(): Promise<Tool[]> {
  const mcp = await connectMcpClient('http', { mcpUrl: guarded.info.mcpUrl, dataDir: guarded.dataDir, token });
  try {
    return (await mcp.client.listTools()).tools;
  } finally {
    await mcp.close();
  }
}

function validator(tool: Tool) {
  expect(tool.outputSchema, `${tool.name} declares its output`).toBeDefined();
  return addFormats(new Ajv({ strict: false, allErrors: true })).compile(tool.outputSchema!);
}

for (const transport of ['http', 'stdio'] as const) {
  test(`the MCP Inspector CLI over ${transport}: tools/list and example_send_ping to the connected app`, async () => {
    const target = transport === 'http' ? overHttp() : overStdio();
    const reference = await sdkTools();
    const listed = answerOf(await inspectorCli(target, ['--method', 'tools/list']));
    expect(listed.tools.map((t) => t.name).sort()).toEqual(reference.map((t) => t.name).sort());
    expect(listed.tools).toEqual(reference);

    const result = answerOf(await inspectorCli(target, ['--method', 'tools/call', '--tool-name', 'example_send_ping']));
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toEqual({
      summary: expect.any(String),
      roundTripMs: expect.any(Number),
      agentTime: expect.any(Number),
    });
    const validate = validator(reference.find((t) => t.name === 'example_send_ping')!);
    expect(validate(result.structuredContent), JSON.stringify(validate.errors)).toBe(true);

    const echo = answerOf(
      await inspectorCli(target, ['--method', 'tools/call', '--tool-name', 'example_echo', '--tool-arg', 'text=hi ✓']),
    );
    expect(echo.content).toEqual([{ type: 'text', text: 'hi ✓' }]);

    // A misspelled argument is refused, naming the right one (the CLI exits 5 on isError).
    const misspelled = await inspectorCli(target, [
      '--method',
      'tools/call',
      '--tool-name',
      'network_list_transactions',
      '--tool-arg',
      'url_contains=/api',
    ]);
    expect(misspelled.code).not.toBe(0);
    const refused = JSON.parse(misspelled.stdout).result as Result;
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain(
      'unknown argument \\"url_contains\\" (did you mean \\"urlContains\\"?)',
    );
  });
}

for (const transport of ['http', 'stdio'] as const) {
  test(`the MCP Inspector CLI over ${transport} in the 2026-07-28 era gets what the 2025 era gets`, async () => {
    const target = transport === 'http' ? overHttp() : overStdio();
    const eras = ['legacy', 'modern'].map((era) => ['--protocol-era', era]);
    const [legacy, modern] = await Promise.all(
      eras.map(async (era) => answerOf(await inspectorCli(target, [...era, '--method', 'tools/list']))),
    );
    expect(modern.tools).toEqual(legacy.tools);
    for (const era of eras) {
      const ping = answerOf(
        await inspectorCli(target, [...era, '--method', 'tools/call', '--tool-name', 'example_send_ping']),
      );
      expect(ping.structuredContent, era[1]).toEqual({
        summary: expect.any(String),
        roundTripMs: expect.any(Number),
        agentTime: expect.any(Number),
      });
      const echo = answerOf(
        await inspectorCli(target, [
          ...era,
          '--method',
          'tools/call',
          '--tool-name',
          'example_echo',
          '--tool-arg',
          'text=both ✓',
        ]),
      );
      expect(echo.content, era[1]).toEqual([{ type: 'text', text: 'both ✓' }]);
    }
  });
}

test('the MCP Inspector CLI --load: 200 pings of the app, 10 at a time, all answered, in both eras', async () => {
  for (const era of ['legacy', 'modern']) {
    const load = answerOf(
      await inspectorCli(overHttp(), [
        ...['--protocol-era', era, '--method', 'tools/call', '--tool-name', 'example_send_ping'],
        ...['--load', '--load-requests', '200', '--load-concurrency', '10'],
      ]),
    ) as unknown as { requests: number; ok: number; toolErrors: number; errors: number; errorMessages: string[] };
    expect(load, era).toMatchObject({ requests: 200, ok: 200, toolErrors: 0, errors: 0, errorMessages: [] });
  }
});

test('the MCP Inspector CLI over HTTP without the token, or with a wrong one, is refused (it asks for auth)', async () => {
  for (const target of [['--transport', 'http', '--server-url', guarded.info.mcpUrl], overHttp('not-the-token')]) {
    const refused = await inspectorCli(target, ['--method', 'tools/list']);
    expect(refused.code).not.toBe(0);
    expect(`${refused.stdout}${refused.stderr}`).toMatch(/401|unauthori[sz]ed|auth_required/i);
  }
});

test('the MCP Inspector CLI --strict finds no schema a client would reject, in either era', async () => {
  for (const era of ['legacy', 'modern']) {
    // It exits 6 when a schema has an error-severity portability problem.
    const strict = await inspectorCli(overHttp(), ['--protocol-era', era, '--method', 'tools/list', '--strict']);
    expect(strict.code, `${era}: ${strict.stdout.slice(0, 200)}${strict.stderr}`).toBe(0);
    expect(answerOf(strict).tools.length, era).toBeGreaterThan(10);
  }
});

test(`after ${TRANSACTIONS} requests no argument-less tool answers more than 25 KB, and tools/list is under 36 KB, in both eras`, async () => {
  const target = { mcpUrl: guarded.info.mcpUrl, dataDir: guarded.dataDir, token };
  // A 1.x client in the 2025 era, a v2 client pinned to 2026-07-28.
  const legacy = await connectMcpClient('http', target);
  const modern = await connectModernClient('http', target);
  const clients = { legacy: legacy.client, modern: modern.client } as const;
  try {
    const call = async (name: string, args: Record<string, unknown>) =>
      ((await legacy.client.callTool({ name, arguments: args })) as Result).structuredContent;
    const sessions = await call('inspector_list_sessions', {});
    const session = sessions?.sessions.find((s: { app: { id: string } }) => s.app.id === APP_ID);
    // Everything the app sent is in: its events arrive batched.
    await expect
      .poll(async () => (await call('network_list_transactions', { sessionId: session.id, limit: 1 }))?.total)
      .toBe(TRANSACTIONS);
    await expect
      .poll(async () => (await call('console_list_messages', { sessionId: session.id, limit: 1 }))?.latest)
      .toBeGreaterThanOrEqual(TRANSACTIONS);

    const sizes: string[] = [];
    const over: string[] = [];
    const measure = async (era: keyof typeof clients, tools: { name: string }[]) => {
      for (const tool of tools) {
        const result = (await clients[era].callTool({ name: tool.name, arguments: {} })) as Result;
        const structured = bytes(result.structuredContent);
        const content = bytes(result.content);
        const failed = result.isError ? ` (failed: ${JSON.stringify(result.content).slice(0, 120)})` : '';
        sizes.push(`${era} ${tool.name}${failed} ${kb(structured)} + ${kb(content)}`);
        if (structured > RESULT_CAP || content > RESULT_CAP)
          over.push(`${era} ${tool.name}: structuredContent ${kb(structured)}, content ${kb(content)}`);
      }
    };
    let clearing: { name: string }[] = [];
    for (const era of ['legacy', 'modern'] as const) {
      const listed = await clients[era].listTools();
      const listSize = bytes(listed);
      sizes.push(`${era} tools/list ${kb(listSize)}`);
      expect(listSize, `${era} tools/list is ${kb(listSize)}`).toBeLessThan(TOOLS_LIST_CAP);
      // {} is a valid call when no argument is required; the clearing tools go last, once.
      const argumentless = listed.tools.filter((t) => (t.inputSchema.required ?? []).length === 0);
      expect(argumentless.map((t) => t.name)).toEqual(
        expect.arrayContaining(['network_list_transactions', 'network_export_har', 'inspector_get_status']),
      );
      clearing = argumentless.filter((t) => t.name.includes('clear'));
      await measure(
        era,
        argumentless.filter((t) => !t.name.includes('clear')),
      );
    }
    await measure('modern', clearing);
    test.info().annotations.push({ type: 'sizes', description: sizes.join('; ') });
    expect(over).toEqual([]);
  } finally {
    await Promise.all([legacy.close(), modern.close()]);
  }
});

const ONE_SHOTS = 100;
/** Between a client's close() and the inspector noticing its stream end, under load. */
const CLOSE_NOTICED_MS = 1500;

test(`${ONE_SHOTS} one-shot SDK clients in a row, none ending its session, all get in; each is listed only for the seconds after its call, then the clients are those of before`, async () => {
  // A client connected before the burst, idle through it: the burst must not evict it (issue 30).
  const mcp = await connectMcpClient('http', { mcpUrl: guarded.info.mcpUrl, dataDir: guarded.dataDir, token });
  const listed = async () => {
    const status = (await mcp.client.callTool({ name: 'inspector_get_status', arguments: {} })) as Result;
    expect(status.isError ?? false).toBe(false);
    return status.structuredContent?.mcpClients.map((c: { name: string }) => c.name) as string[];
  };
  try {
    const before = await listed();
    expect(before).toContain('porthole-test-client');
    // From a process of their own (e2e/support/one-shot-mcp-clients.mjs), with the default limits.
    // electron/host/mcp/mcp-security.test.ts lets clients in that never close, with a small limit.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'e2e/support/one-shot-mcp-clients.mjs'), guarded.info.mcpUrl, String(ONE_SHOTS)],
      { cwd: ROOT, timeout: 60_000, env: { ...process.env, MCP_TOKEN: token } },
    );
    const runs = stdout
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            i: number;
            isError?: boolean;
            clients?: string[];
            error?: string;
            calledAt: number;
            closedAt: number;
          },
      );
    expect(runs.filter((r) => r.error || r.isError)).toEqual([]);
    expect(runs).toHaveLength(ONE_SHOTS);
    // A one-shot client counts as connected for ONE_SHOT_PRESENCE_MS after its last request (issue 37
    // §6), so what a status lists during the burst is bounded by that window, not by the burst: each
    // other one-shot client it names closed less than that long before the status was asked for.
    const stale: string[] = [];
    for (const r of runs) {
      expect(r.clients, `client ${r.i} sees itself`).toContain(`one-shot-${r.i}`);
      for (const name of r.clients!.filter((n) => n.startsWith('one-shot-') && n !== `one-shot-${r.i}`)) {
        const other = runs[Number(name.slice('one-shot-'.length))]!;
        const ago = r.calledAt - other.closedAt;
        if (!(ago < ONE_SHOT_PRESENCE_MS + CLOSE_NOTICED_MS))
          stale.push(`${r.i} lists ${name}, closed ${ago} ms before`);
      }
    }
    expect(stale).toEqual([]);
    const seen = runs.map((r) => r.clients!.filter((n) => n.startsWith('one-shot-')).length);
    test.info().annotations.push({
      type: 'one-shot clients listed during the burst',
      description: `at most ${Math.max(...seen)} of ${ONE_SHOTS}; the burst took ${runs.at(-1)!.closedAt - runs[0]!.calledAt} ms`,
    });

    // Once the window has passed, none is listed and the clients are those of before (or fewer:
    // earlier tests' clients may have gone quiet for presenceMs meanwhile).
    await expect
      .poll(async () => (await listed()).filter((n) => n.startsWith('one-shot-')), {
        timeout: ONE_SHOT_PRESENCE_MS + 10_000,
      })
      .toEqual([]);
    const after = await listed();
    expect(after).toContain('porthole-test-client');
    expect(after.filter((n) => !before.includes(n))).toEqual([]);
  } finally {
    await mcp.close();
  }
});

test('mcp-remote (how Claude Desktop reaches an HTTP server) bridges stdio to /mcp with the bearer header, and passes a 413 on', async () => {
  const client = new Client({ name: 'claude-desktop-like', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: tools.node,
    args: [
      tools.mcpRemote,
      guarded.info.mcpUrl,
      '--header',
      `Authorization: Bearer ${token}`,
      '--transport',
      'http-only',
    ],
    cwd: tools.dir,
    env: { ...process.env, HOME: tools.dir } as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d));
  try {
    await client.connect(transport);
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name).sort(), stderr).toEqual((await sdkTools()).map((t) => t.name).sort());
    const ping = (await client.callTool({ name: 'example_send_ping', arguments: {} })) as Result;
    expect(ping.isError ?? false, stderr).toBe(false);
    expect(ping.structuredContent).toEqual({
      summary: expect.any(String),
      roundTripMs: expect.any(Number),
      agentTime: expect.any(Number),
    });
    // A body over the cap: the 413's reason reaches the client through mcp-remote, not "fetch failed".
    await expect(
      client.callTool({ name: 'example_echo', arguments: { text: 'x'.repeat(5 * 1024 * 1024) } }),
    ).rejects.toThrow(/Payload too large: MCP request bodies are limited to 4194304 bytes/);
    const after = (await client.callTool({ name: 'example_echo', arguments: { text: 'still here' } })) as Result;
    expect(after.content).toEqual([{ type: 'text', text: 'still here' }]);
  } finally {
    await client.close();
  }
});
