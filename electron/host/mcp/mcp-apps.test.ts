import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../../agent/connection.js';
import type { AgentPlugin } from '../../../agent/plugin.js';
import { console as consolePlugin } from '../../../plugins/console/agent/index.js';
import { cleanupAfterEach } from '../test-cleanup.js';
import { startTestCore, waitFor } from '../testing.js';
import { MCP_APPS } from './mcp-apps.js';
import { connectMcpClient, connectModernClient, type McpTransportKind } from './mcp-testing.js';

/** What a client that renders MCP Apps declares (the spec's capability negotiation). */
const RENDERS_APPS = { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } };

interface AnyClient {
  listTools(): Promise<{ tools: { name: string; _meta?: Record<string, unknown> }[] }>;
  listResources(): Promise<{ resources: { uri: string; mimeType?: string; name: string }[] }>;
  readResource(params: { uri: string }): Promise<{
    contents: { uri: string; mimeType?: string; text?: string; _meta?: Record<string, unknown> }[];
  }>;
}

type TestCore = Awaited<ReturnType<typeof startTestCore>>;
type Era = 'legacy' | 'modern';
const uiOf = (tool: { _meta?: Record<string, unknown> }) => (tool._meta?.ui as { resourceUri?: string })?.resourceUri;

describe.each<McpTransportKind>(['http', 'stdio'])('MCP Apps over %s', (kind) => {
  let t: TestCore;
  const clients = {} as Record<`${Era}-${'apps' | 'plain'}`, AnyClient>;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    t = await startTestCore();
    const target = { mcpUrl: t.urls.mcpUrl, dataDir: t.dataDir, token: t.core.mcp.token() };
    for (const apps of [true, false]) {
      const caps = apps ? RENDERS_APPS : undefined;
      const legacy = await connectMcpClient(kind, target, { name: `sdk1-${apps}`, version: '1' }, caps);
      const modern = await connectModernClient(kind, target, { name: `sdk2-${apps}`, version: '2' }, caps);
      closers.push(legacy.close, modern.close);
      clients[`legacy-${apps ? 'apps' : 'plain'}`] = legacy.client as unknown as AnyClient;
      clients[`modern-${apps ? 'apps' : 'plain'}`] = modern.client as unknown as AnyClient;
    }
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled(closers.map((close) => close()));
    await t?.stop();
  });

  describe.each<Era>(['legacy', 'modern'])('a %s-era client', (era) => {
    it('that renders apps sees each view on its tool, and no other tool carries one', async () => {
      const { tools } = await clients[`${era}-apps`].listTools();
      for (const app of MCP_APPS) {
        expect(uiOf(tools.find((tool) => tool.name === app.tool)!), app.tool).toBe(app.uri);
      }
      const withViews = tools.filter((tool) => uiOf(tool) !== undefined).map((tool) => tool.name);
      expect(withViews.sort()).toEqual(MCP_APPS.map((app) => app.tool).sort());
      // The tool's own _meta stays (console_list_errors is an entry tool).
      const errors = tools.find((tool) => tool.name === 'console_list_errors')!;
      expect(errors._meta?.['anthropic/alwaysLoad']).toBe(true);
    });

    it('that does not render apps gets no _meta.ui (the spec: servers check the capability first)', async () => {
      const { tools } = await clients[`${era}-plain`].listTools();
      expect(tools.filter((tool) => tool._meta?.ui !== undefined).map((tool) => tool.name)).toEqual([]);
      expect(tools.find((tool) => tool.name === 'console_list_errors')?._meta?.['anthropic/alwaysLoad']).toBe(true);
    });

    it.each(['apps', 'plain'] as const)('(%s) lists the ui:// resources and reads each as one HTML page', async (c) => {
      const client = clients[`${era}-${c}`];
      const { resources } = await client.listResources();
      expect(resources.map((r) => [r.uri, r.mimeType])).toEqual(MCP_APPS.map((app) => [app.uri, RESOURCE_MIME_TYPE]));
      for (const app of MCP_APPS) {
        const { contents } = await client.readResource({ uri: app.uri });
        expect(contents).toHaveLength(1);
        const [page] = contents;
        expect(page!.uri).toBe(app.uri);
        expect(page!.mimeType).toBe(RESOURCE_MIME_TYPE);
        // Self-contained: its script and styles inline, nothing loaded from elsewhere.
        expect(page!.text).toMatch(/^<!doctype html>/);
        expect(page!.text).toContain('<script>');
        expect(page!.text).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet/);
        expect(page!.text).toContain('ui/initialize');
        expect(page!._meta?.ui).toEqual({ csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true });
      }
    });

    it('is told which URIs exist when it reads one that does not', async () => {
      const error = await clients[`${era}-apps`].readResource({ uri: 'ui://porthole/nope.html' }).then(
        () => undefined,
        (e: Error & { code?: number }) => e,
      );
      expect(error?.message).toContain('ui://porthole/nope.html');
      expect(error?.message).toContain(MCP_APPS[0]!.uri);
    });
  });
});

describe('the server declares MCP Apps', () => {
  const defer = cleanupAfterEach();

  it('and a tool with a view still answers in full as text and structuredContent', async () => {
    const previous = globalThis.console;
    globalThis.console = new Console({ stdout: new Writable({ write: (_c, _e, done) => done() }) });
    defer(() => {
      globalThis.console = previous;
    });
    const t = await startTestCore();
    defer(() => t.stop());
    const agent = connect({
      url: t.urls.debuggeeUrl,
      app: { id: 'com.test.apps', name: 'Apps' },
      plugins: [consolePlugin({ flushMs: 10 }) as unknown as AgentPlugin],
    });
    defer(() => agent.disconnect());
    await waitFor(() => agent.status.sessionId, 'the app to connect');
    const target = { mcpUrl: t.urls.mcpUrl, dataDir: t.dataDir, token: t.core.mcp.token() };
    const mcp = await connectMcpClient('http', target, undefined, RENDERS_APPS);
    defer(() => mcp.close());
    console.error('cart failed: HTTP 500 from /boom');
    let answer: { isError?: boolean; content: { text?: string }[]; structuredContent?: Record<string, unknown> };
    await waitFor(async () => {
      answer = (await mcp.client.callTool({ name: 'console_list_errors', arguments: {} })) as typeof answer;
      return (answer.structuredContent?.groups as unknown[] | undefined)?.length === 1;
    }, 'the error group');
    expect(answer!.isError).toBeFalsy();
    expect(answer!.content[0]?.text).toContain('cart failed: HTTP 500 from /boom');
    expect(answer!.structuredContent).toMatchObject({
      summary: expect.stringContaining('1'),
      groups: [{ text: 'cart failed: HTTP 500 from /boom', count: 1 }],
    });
  });

  it('in its capabilities (2025 era), beside resources', async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    const mcp = await connectMcpClient('http', {
      mcpUrl: t.urls.mcpUrl,
      dataDir: t.dataDir,
      token: t.core.mcp.token(),
    });
    defer(() => mcp.close());
    const caps = mcp.client.getServerCapabilities() as Record<string, unknown> & {
      extensions?: Record<string, unknown>;
    };
    expect(caps.resources).toEqual({});
    expect(caps.extensions?.[EXTENSION_ID]).toEqual({ mimeTypes: [RESOURCE_MIME_TYPE] });
  });
});
