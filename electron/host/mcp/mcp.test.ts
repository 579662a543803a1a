import { readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Agent, connect } from '../../../agent/connection.js';
import { type AgentPlugin, defineAgentPlugin } from '../../../agent/plugin.js';
import { example } from '../../../plugins/example/agent/index.js';
import { exampleProtocol } from '../../../plugins/example/protocol.js';
import { ui } from '../../../plugins/ui/agent/index.js';
import type { CallSummary } from '../../../shared/call-record.js';
import { defineTool, TOOL_NAME_PATTERN, ToolArgumentError } from '../../../shared/tool.js';
import { mirrorText } from '../../../shared/tool-result.js';
import { startTestCore, waitFor } from '../testing.js';
import { connectMcpClient, type McpTransportKind } from './mcp-testing.js';

type TestCore = Awaited<ReturnType<typeof startTestCore>>;
type Result = CallToolResult & { structuredContent?: Record<string, unknown> };

const app = { id: 'com.test.mcp', name: 'MCP Test App' };
const textOf = (r: Result) =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');

/** A host tool that always blames its arguments, registered by the test. */
const failingTool = defineTool({
  name: 'inspector_test_reject',
  title: 'Test: reject',
  description: 'Throws a ToolArgumentError.',
  input: z.object({ limit: z.number() }),
  annotations: { readOnlyHint: true },
  handler: ({ limit }) => {
    throw new ToolArgumentError(`limit must be at most 10, got ${limit}`);
  },
});

/** A host tool whose handler's value (an array) is wrapped for MCP callers by mcpResult. */
const wrappingTool = defineTool({
  name: 'inspector_test_wrap',
  title: 'Test: wrap',
  description: 'Answers two ids.',
  input: z.object({}),
  output: z.object({ ids: z.array(z.string()) }),
  mcpResult: (ids: string[]) => ({ ids }),
  annotations: { readOnlyHint: true },
  handler: () => ['one', 'two'],
});

describe.each<McpTransportKind>(['http', 'stdio'])('MCP over %s, end to end with a real debuggee', (kind) => {
  const surface = kind === 'http' ? 'mcp-http' : 'mcp-stdio';
  const clientInfo = { name: `test-client-${kind}`, version: '4.5.6' };
  let t: TestCore;
  let mcp: Client;
  let closeClient: () => Promise<void>;
  let unregister: () => void;
  const agents: Agent[] = [];

  const startAgent = async (plugins: AgentPlugin[] = [example()]) => {
    const agent = connect({
      url: t.urls.debuggeeUrl,
      app,
      plugins,
      reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
    });
    agents.push(agent);
    const sessionId = await waitFor(
      () => agent.status.state === 'connected' && agent.status.sessionId,
      'the agent to connect',
    );
    return { agent, sessionId };
  };
  const call = (name: string, args: Record<string, unknown> = {}) =>
    mcp.callTool({ name, arguments: args }) as Promise<Result>;
  const lastCall = (tool: string) => t.core.history.list(undefined, { tool })[0]!;

  beforeAll(async () => {
    t = await startTestCore({ link: { requestTimeoutMs: 300 } });
    unregister = t.core.tools.register([failingTool, wrappingTool]);
    const connected = await connectMcpClient(
      kind,
      { mcpUrl: t.urls.mcpUrl, dataDir: t.dataDir, token: t.core.mcp.token() },
      clientInfo,
    );
    mcp = connected.client;
    closeClient = connected.close;
    await mcp.listTools(); // the SDK client validates structuredContent against the schemas it listed
  });
  afterEach(async () => {
    for (const agent of agents.splice(0)) agent.disconnect();
    await waitFor(() => t.core.sessions.list().every((s) => !s.active), 'the agents to disconnect');
  });
  afterAll(async () => {
    unregister();
    await closeClient();
    await t.stop();
  });

  it('lists every tool with a valid name, annotations, and an output schema where one is declared', async () => {
    const { tools } = await mcp.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'inspector_list_sessions',
        'inspector_list_plugins',
        'inspector_get_status',
        'example_send_ping',
        'example_echo',
        'ui_screenshot',
      ]),
    );
    for (const tool of tools) {
      expect(tool.name).toMatch(TOOL_NAME_PATTERN);
      expect(tool.description).toBeTruthy();
      expect(tool.annotations).toBeDefined();
      const declared = t.core.tools.get(tool.name)!.definition.output !== undefined;
      expect(tool.outputSchema !== undefined, tool.name).toBe(declared);
    }
    const ping = tools.find((tool) => tool.name === 'example_send_ping')!;
    expect(ping.outputSchema).toMatchObject({
      type: 'object',
      properties: { roundTripMs: { type: 'number' }, agentTime: { type: 'number' } },
    });
    expect(ping.inputSchema.properties).toHaveProperty('sessionId');
    expect(ping.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((tool) => tool.name === 'example_echo')!.outputSchema).toBeUndefined();
    expect(tools.find((tool) => tool.name === 'inspector_get_status')!.inputSchema.properties ?? {}).not.toHaveProperty(
      'sessionId',
    );
    // The window lists the very same schemas.
    const window = t.core.tools.list().find((tool) => tool.name === 'example_send_ping')!;
    expect(window.inputSchema).toEqual(ping.inputSchema);
    expect(window.outputSchema).toEqual(ping.outputSchema);
  });

  it('answers every tool with an output schema with structuredContent the SDK client accepts', async () => {
    const { sessionId } = await startAgent();
    // The host's tools and the example plugin's (the only plugin this debuggee runs).
    const withOutput = (await mcp.listTools()).tools.filter(
      (tool) => tool.outputSchema && [undefined, 'example'].includes(t.core.tools.get(tool.name)!.plugin),
    );
    expect(withOutput.map((tool) => tool.name).sort()).toEqual([
      'example_send_ping',
      'inspector_debug_bundle',
      'inspector_get_status',
      'inspector_list_plugins',
      'inspector_list_sessions',
      'inspector_test_wrap',
    ]);
    for (const tool of withOutput) {
      const result = await call(tool.name);
      expect(result.isError ?? false, `${tool.name}: ${textOf(result)}`).toBe(false);
      expect(result.structuredContent, tool.name).toBeDefined();
      expect(textOf(result)).toBe(mirrorText(result.structuredContent!));
    }
    const sessions = await call('inspector_list_sessions');
    expect(sessions.structuredContent).toMatchObject({ sessions: [{ id: sessionId, active: true, app }] });
    const status = await call('inspector_get_status');
    expect(status.structuredContent).toMatchObject({
      version: t.core.version,
      sessions: { active: 1 },
      mcpClients: expect.arrayContaining([{ ...clientInfo, surface, connectedAt: expect.any(Number) }]),
    });
    const plugins = await call('inspector_list_plugins');
    expect(plugins.structuredContent).toMatchObject({
      plugins: expect.arrayContaining([
        expect.objectContaining({
          id: 'example',
          tools: ['example_send_ping', 'example_echo'],
          sessions: [expect.objectContaining({ sessionId, active: true, version: '1.0.0' })],
        }),
      ]),
    });
  });

  it('pings the debuggee and records the call once, with its client and surface, its JSON stored once', async () => {
    const { sessionId } = await startAgent();
    const before = Date.now();
    const result = await call('example_send_ping');
    expect(result.isError ?? false).toBe(false);
    const pong = result.structuredContent as { roundTripMs: number; agentTime: number };
    expect(pong.roundTripMs).toBeGreaterThanOrEqual(0);
    expect(pong.agentTime).toBeGreaterThanOrEqual(before - 1000);

    const recorded = t.core.history.list().filter((c) => c.tool === 'example_send_ping' && c.startedAt >= before);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      status: 'succeeded',
      plugin: 'example',
      sessionId,
      surface,
      client: clientInfo,
    });
    const detail = t.core.history.get(recorded[0]!.id)!;
    expect(detail.result).toEqual({
      isError: false,
      structuredContent: pong,
      content: [{ type: 'text', text: mirrorText(pong) }],
    });
    await t.core.history.flush();
    const line = readFileSync(t.core.history.path, 'utf8')
      .split('\n')
      .find((l) => l.includes(`"id":"${recorded[0]!.id}"`) && l.includes('"finished"'))!;
    expect(line.match(/agentTime/g)).toHaveLength(1);
    expect(t.core.history.stored(recorded[0]!.id)!.content).toEqual([{ type: 'mirror' }]);
  });

  it('echoes text, and answers bad arguments with isError (recorded as failed)', async () => {
    await startAgent();
    const text = `hello ${kind} ${Math.random()}`;
    const echoed = await call('example_echo', { text });
    expect(echoed.isError ?? false).toBe(false);
    expect(textOf(echoed)).toBe(text);

    const bad = await call('example_echo', { text: 42 });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/invalid arguments for example_echo: text: .*inputSchema/);
    const recorded = lastCall('example_echo');
    expect(recorded).toMatchObject({ status: 'failed', surface, client: clientInfo });
    expect(t.core.history.get(recorded.id)!.args).toEqual({ text: 42 });
  });

  it('turns a thrown ToolArgumentError into isError', async () => {
    const result = await call('inspector_test_reject', { limit: 99 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('limit must be at most 10, got 99');
    expect(lastCall('inspector_test_reject')).toMatchObject({ status: 'failed', error: textOf(result), surface });
  });

  it('answers an unknown tool and a call without name with -32602 (the unknown tool is still recorded)', async () => {
    const unknown = await mcp
      .request({ method: 'tools/call', params: { name: 'example_send_pong', arguments: {} } }, CallToolResultSchema)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(unknown).toBeInstanceOf(McpError);
    expect((unknown as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((unknown as McpError).message).toMatch(
      /there is no tool named "example_send_pong" \(did you mean "example_send_ping"\?\); call tools\/list/,
    );
    expect(lastCall('example_send_pong')).toMatchObject({
      status: 'failed',
      surface,
      error: expect.stringContaining('no tool named'),
    });

    for (const params of [{}, { name: 42 }, { arguments: { x: 1 } }]) {
      const nameless = await mcp.request({ method: 'tools/call', params } as never, CallToolResultSchema).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(nameless, JSON.stringify(params)).toBeInstanceOf(McpError);
      expect((nameless as McpError).code).toBe(ErrorCode.InvalidParams);
      expect((nameless as McpError).message).toMatch(
        /^MCP error -32602: tools\/call needs params\.name, the name of the tool/,
      );
      expect((nameless as McpError).message.length).toBeLessThan(160);
    }
    const badArgs = await mcp
      .request(
        { method: 'tools/call', params: { name: 'example_echo', arguments: [1] } } as never,
        CallToolResultSchema,
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((badArgs as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((badArgs as McpError).message).toMatch(/params\.arguments must be an object/);
  });

  it('answers an unknown or inactive sessionId with isError naming the choices', async () => {
    const { sessionId } = await startAgent();
    const unknown = await call('example_send_ping', { sessionId: 'no-such-session' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('there is no session "no-such-session"');
    expect(textOf(unknown)).toContain(sessionId);
    expect(lastCall('example_send_ping')).toMatchObject({ status: 'failed', sessionId: 'no-such-session' });

    agents.pop()!.disconnect();
    await waitFor(() => !t.core.sessions.get(sessionId)!.info.active, 'the session to go inactive');
    const inactive = await call('example_send_ping', { sessionId });
    expect(inactive.isError).toBe(true);
    expect(textOf(inactive)).toMatch(/is inactive/);
  });

  it('fails when the debuggee is gone, when two apps qualify, and when the debuggee does not answer', async () => {
    const none = await call('example_send_ping');
    expect(none.isError).toBe(true);
    expect(textOf(none)).toMatch(/no connected app has the example plugin/);

    const first = await startAgent();
    const second = await startAgent();
    const two = await call('example_send_ping');
    expect(two.isError).toBe(true);
    expect(textOf(two)).toContain(first.sessionId);
    expect(textOf(two)).toContain(second.sessionId);
    for (const agent of agents.splice(0)) agent.disconnect();

    const mute = defineAgentPlugin(exampleProtocol, (ctx) => {
      ctx.handle('ping', () => new Promise<never>(() => {}));
    });
    const silent = await startAgent([mute]);
    const unanswered = await call('example_send_ping');
    expect(unanswered.isError).toBe(true);
    expect(textOf(unanswered)).toMatch(/^the debuggee did not answer ping: no reply to example\.ping within 300 ms/);
    expect(lastCall('example_send_ping')).toMatchObject({ status: 'failed', sessionId: silent.sessionId });
  });

  it('answers a debuggee that cannot capture a screenshot with a failure that says so', async () => {
    await startAgent([ui()]); // a Node debuggee: no DOM and no screenshot hook
    const result = await call('ui_screenshot');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/could not take a screenshot: .*no DOM.*ui\(\{ screenshot \}\)/);
  });

  it('returns an image from a captureScreenshot hook, stored in the history by reference', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    await startAgent([ui({ screenshot: () => ({ base64: png, mimeType: 'image/png', width: 1, height: 1 }) })]);
    const result = await call('ui_screenshot');
    expect(result.isError ?? false).toBe(false);
    expect(result.content[0]).toEqual({ type: 'image', data: png, mimeType: 'image/png' });
    expect(result.structuredContent).toBeUndefined();
    const recorded = lastCall('ui_screenshot');
    expect(t.core.history.stored(recorded.id)!.content[0]).toMatchObject({
      type: 'image',
      ref: expect.stringMatching(/\.png$/),
    });
    expect(t.core.history.get(recorded.id)!.result!.content[0]).toEqual({
      type: 'image',
      data: png,
      mimeType: 'image/png',
    });
  });

  it('cancels a call: the pending debuggee request is aborted and the call is recorded as cancelled', async () => {
    let agentSignal: AbortSignal | undefined;
    const slow = defineAgentPlugin(exampleProtocol, (ctx) => {
      ctx.handle('echo', (_params, signal) => {
        agentSignal = signal;
        return new Promise<never>(() => {});
      });
    });
    await startAgent([slow]);
    const controller = new AbortController();
    const pending = mcp.callTool({ name: 'example_echo', arguments: { text: 'never' } }, undefined, {
      signal: controller.signal,
      timeout: 60_000,
    });
    pending.catch(() => {});
    const running = await waitFor(
      () => t.core.history.list(1, { tool: 'example_echo', status: 'running' })[0],
      'the call to start',
    );
    await waitFor(() => agentSignal, 'the debuggee to receive the request');
    controller.abort('the test cancels');
    await expect(pending).rejects.toThrow();
    await waitFor(() => t.core.history.get(running.id)!.status === 'cancelled', 'the call to be recorded as cancelled');
    await waitFor(() => agentSignal!.aborted, 'the debuggee request to be cancelled');
  });

  it('sends tools/list_changed when the tool set changes', async () => {
    let notified = 0;
    mcp.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notified++;
    });
    const remove = t.core.tools.register([
      defineTool({
        name: 'inspector_test_added',
        title: 'Test: added',
        description: 'Registered while a client is connected.',
        input: z.object({}),
        annotations: {},
        handler: () => 'added',
      }),
    ]);
    await waitFor(() => notified > 0, 'tools/list_changed');
    expect((await mcp.listTools()).tools.map((tool) => tool.name)).toContain('inspector_test_added');
    expect(textOf(await call('inspector_test_added'))).toBe('added');
    const seen = notified;
    remove();
    await waitFor(() => notified > seen, 'tools/list_changed after removal');
    expect((await mcp.listTools()).tools.map((tool) => tool.name)).not.toContain('inspector_test_added');
  });

  it('records calls from the window (surface ui) with the raw value for mcpResult tools', async () => {
    const run = await t.core.tools.run('inspector_test_wrap', {});
    expect(run.result.raw).toEqual(['one', 'two']);
    const mcpAnswer = await call('inspector_test_wrap');
    expect(mcpAnswer.structuredContent).toEqual({ summary: expect.any(String), ids: ['one', 'two'] });
    const recorded = t.core.history.get(run.callId)!;
    expect(recorded).toMatchObject({ surface: 'ui', status: 'succeeded', tool: 'inspector_test_wrap' });
    expect(recorded.client).toBeUndefined();
    const mcpCall: CallSummary = lastCall('inspector_test_wrap');
    expect(mcpCall).toMatchObject({ surface, client: clientInfo });
  });
});
