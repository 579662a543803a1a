import { onTestFinished } from 'vitest';
import { z } from 'zod';
import { type Agent, type ConnectOptions, connect } from '../../agent/connection.js';
import type { AgentPlugin } from '../../agent/plugin.js';
import { BridgeClient, type ConnectionState, type Transport } from '../../renderer/src/bridge/bridge-client.js';
import {
  acceptPanelEvents,
  createPanelClient,
  type PanelClient,
  type PanelEvent,
} from '../../renderer/src/panel-client.js';
import type { ClientFrame, Snapshot, ToolInfo, ToolRunResult } from '../../shared/bridge.js';
import { ToolResultJsonSchema } from '../../shared/call-record.js';
import type { HostPluginDefinition, HostPluginInstance } from '../../shared/host-plugin.js';
import type {
  NotificationMethod,
  NotificationParams,
  PanelEventData,
  PanelEventName,
  PluginProtocol,
} from '../../shared/plugin-protocol.js';
import type { Core, CoreOptions, CoreUrls } from './core.js';
import { connectMcpClient } from './mcp/mcp-testing.js';
import { startTestCore, waitFor } from './testing.js';

// The plugin kit's test utilities (vitest): one plugin in a real core, its agent part connected over
// the real debuggee link, and the three ways it is used — MCP, the window's tool runner, its panel.

export interface StartPluginOptions {
  /** How the app introduces itself. Default: `{ id: 'com.test.<plugin id>', name: 'Test App' }`. */
  app?: ConnectOptions['app'];
  device?: ConnectOptions['device'];
  /** The core's options; its `plugins` run beside the one under test (by default it runs alone). */
  core?: Partial<CoreOptions>;
}

/** A tool's answer as a test reads it: Porthole's result, `raw` (the window only), its text blocks joined. */
export type ToolAnswer = ToolRunResult & { text: string };

/** A tool as an MCP client lists it. */
export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: { properties?: Record<string, unknown>; [key: string]: unknown };
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

export interface PluginTest<P extends PluginProtocol, I, A> {
  core: Core;
  urls: CoreUrls;
  dataDir: string;
  /** The app's session. */
  sessionId: string;
  /** The host part's instance for that session. */
  host: I;
  /** The agent part as the app holds it, with its API (e.g. `log()`). */
  agent: A;
  /** The app's connection to the inspector: `status`, `disconnect()`. */
  connection: Agent;
  /**
   * Sends a notification to the host part over the app's link, as the agent part's `ctx.notify`
   * does but without its validation, so a test can also send what a broken agent would.
   */
  sendEvent<M extends NotificationMethod<P['toHost']>>(method: M, params: NotificationParams<P['toHost'], M>): void;
  /** A real MCP SDK client over Streamable HTTP (connected on first use). */
  mcp: {
    tools(): Promise<ListedTool[]>;
    call(name: string, args?: Record<string, unknown>): Promise<ToolAnswer>;
  };
  /** The window: its snapshot (the plugin list), the tools browser's list and tool runner. */
  window: {
    snapshot(): Promise<Snapshot>;
    tools(): Promise<ToolInfo[]>;
    /** Runs a tool as the tools browser does (surface `ui`, recorded in the call history). */
    run(name: string, args?: Record<string, unknown>): Promise<ToolAnswer & { callId?: string }>;
  };
  /** What the plugin's panel in the window gets, through the same code as usePanelClient and usePluginEvents. */
  panel: PanelClient<P> & {
    /** The events the panel accepted so far for this session, oldest first. */
    readonly events: PanelEvent<P>[];
    /** The data of the first event called `event` (that `match`es), waiting for it if needed. */
    waitForEvent<E extends PanelEventName<P>>(
      event: E,
      match?: (data: PanelEventData<P, E>) => boolean,
    ): Promise<PanelEventData<P, E>>;
  };
  /** The app disconnects; resolves once its session is inactive (its data stays). */
  disconnect(): Promise<void>;
  /**
   * Stops only the inspector; the app keeps trying to reconnect. With `keepData`, start a core on
   * the same `dataDir` and debuggee port to test what survives a restart.
   */
  stopCore(options?: { keepData?: boolean }): Promise<void>;
  /**
   * Ends everything (also done when the test finishes). Fails when the host published an event
   * that its panel's schema refuses: the window would have dropped it.
   */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * Starts `definition` (a plugin's host part) in a real core with a throwaway data dir, connects an
 * app with `agent` (its agent part, or a function of the core's URLs that makes it) over the real
 * debuggee link, and opens the window's bridge. Call it inside a test: it stops when the test ends.
 * An agent part with a `dispose()` (one that patches globals) is disposed then too.
 */
export async function startPlugin<P extends PluginProtocol, I extends HostPluginInstance<P>, A extends AgentPlugin<P>>(
  definition: HostPluginDefinition<P, I>,
  agent: A | ((urls: CoreUrls) => A | Promise<A>),
  options: StartPluginOptions = {},
): Promise<PluginTest<P, I, A>> {
  const { protocol } = definition;
  const instances = new Map<string, I>();
  const observed: HostPluginDefinition<P, I> = {
    ...definition,
    create(ctx) {
      const instance = definition.create(ctx);
      instances.set(ctx.sessionId, instance);
      return instance;
    },
  };
  const t = await startTestCore({ ...options.core, plugins: [observed, ...(options.core?.plugins ?? [])] });
  const cleanups: (() => unknown)[] = [];
  let stopped: Promise<void> | undefined;
  const invalidEvents: string[] = [];
  const stop = ({ keepData = false } = {}) =>
    (stopped ??= (async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
      await t.stop({ keepData });
      if (invalidEvents.length > 0) {
        throw new Error(`the host published events its panel drops (check ctx.emit against the protocol's panel.events):
${invalidEvents.join('\n')}`);
      }
    })());
  onTestFinished(() => stop());

  const window = new BridgeClient(inProcessTransport(t.core));
  cleanups.push(() => window.close());
  const panelView = watchPanelEvents(window, protocol, (problem) => invalidEvents.push(problem));
  await waitFor(() => window.state === 'open', 'the window bridge to open');

  const agentPart = typeof agent === 'function' ? await agent(t.urls) : agent;
  const dispose = (agentPart as { dispose?: unknown }).dispose;
  if (typeof dispose === 'function') cleanups.push(() => dispose.call(agentPart));
  const connection = connect({
    url: t.urls.debuggeeUrl,
    app: options.app ?? { id: `com.test.${protocol.id}`, name: 'Test App' },
    device: options.device,
    plugins: [agentPart],
    reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
  });
  cleanups.push(() => connection.disconnect());
  const sessionId = await waitFor(() => {
    const refused = connection.status.incompatiblePlugins?.find((p) => p.id === protocol.id);
    if (refused) throw new Error(`the inspector refused the ${protocol.id} agent part: ${refused.reason}`);
    return connection.status.state === 'connected' && connection.status.sessionId;
  }, `the app to connect with the ${protocol.id} plugin`);
  const host = await waitFor(() => instances.get(sessionId), `the ${protocol.id} host instance`);

  let mcp: ReturnType<typeof connectMcpClient> | undefined;
  const mcpClient = () =>
    (mcp ??= connectMcpClient('http', { mcpUrl: t.urls.mcpUrl, dataDir: t.dataDir, token: t.core.mcp.token() }).then(
      async (connected) => {
        cleanups.push(() => connected.close());
        await connected.client.listTools(); // the SDK client checks structuredContent against listed output schemas
        return connected;
      },
    ));

  const panel = createPanelClient(window, protocol, sessionId);
  const events = () => panelView.of(sessionId);
  return {
    core: t.core,
    urls: t.urls,
    dataDir: t.dataDir,
    sessionId,
    host,
    agent: agentPart,
    connection,
    sendEvent(method, params) {
      if (!agentPart.runtime.link?.notify(protocol.id, method, params)) {
        throw new Error(`cannot send ${protocol.id}.${method}: the app is not connected`);
      }
    },
    mcp: {
      tools: async () => (await (await mcpClient()).client.listTools()).tools as ListedTool[],
      async call(name, args = {}) {
        const result = await (await mcpClient()).client.callTool({ name, arguments: args });
        return answer(McpResultSchema.parse(result));
      },
    },
    window: {
      snapshot: () => window.request('app.snapshot', {}),
      tools: async () => (await window.request('tools.list', {})).tools,
      async run(name, args = {}) {
        const { callId, result } = await window.request('tools.run', { name, args });
        return { ...answer(result), callId };
      },
    },
    panel: {
      call: panel.call,
      get events() {
        return events();
      },
      async waitForEvent(name, match = () => true) {
        const found = await waitFor(
          () => events().find((e) => e.event === name && match(e.data as never)),
          `the panel to get a ${protocol.id} "${name}" event`,
        );
        return found.data as never;
      },
    },
    async disconnect() {
      connection.disconnect();
      await waitFor(() => t.core.sessions.get(sessionId)?.info.active === false, 'the session to go inactive');
    },
    stopCore: (options) => t.stop(options),
    stop,
  };
}

/** The plugin's events as its panel in each session accepts them (what usePluginEvents does); refusals go to `onInvalid`. */
function watchPanelEvents<P extends PluginProtocol>(
  window: BridgeClient,
  protocol: P,
  onInvalid: (problem: string) => void,
): { of(sessionId: string): PanelEvent<P>[] } {
  const received: { sessionId: string; event: PanelEvent<P> }[] = [];
  window.onEvents((events) => {
    for (const { event, data } of events) {
      if (event !== 'plugin:event' || data.plugin !== protocol.id) continue;
      const accepted = acceptPanelEvents(protocol, [data], (name, issues) =>
        onInvalid(`${name} (session ${data.sessionId}): ${issues}`),
      );
      for (const e of accepted) received.push({ sessionId: data.sessionId, event: e });
    }
  });
  return { of: (sessionId) => received.filter((r) => r.sessionId === sessionId).map((r) => r.event) };
}

/** What MCP returns, read as Porthole's own result shape (an SDK client may leave out `isError: false`). */
const McpResultSchema = ToolResultJsonSchema.extend({ isError: z.boolean().default(false) });

function answer(result: ToolRunResult): ToolAnswer {
  const text = result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
  return { ...result, text };
}

/**
 * The transport the Electron preload gives the window, minus Electron: frames go straight to the
 * core's transport-neutral bridge connection, through a JSON round trip as IPC's structured clone would.
 */
export function inProcessTransport(core: Core): Transport & { drop(): void } {
  let onFrame: (frame: unknown) => void = () => {};
  let onState: (state: ConnectionState, detail?: string) => void = () => {};
  const connection = core.ui.bridge.connect((frame) => onFrame(JSON.parse(JSON.stringify(frame))));
  queueMicrotask(() => onState('open'));
  return {
    send: (frame: ClientFrame) => connection.receive(JSON.parse(JSON.stringify(frame))),
    onFrame: (listener) => (onFrame = listener),
    onState: (listener) => (onState = listener),
    close: () => connection.close(),
    drop() {
      connection.close();
      onState('closed', 'the test dropped the connection');
    },
  };
}
