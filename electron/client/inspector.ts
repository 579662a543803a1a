import { writeFile } from 'node:fs/promises';
import {
  type CallToolResult,
  Client,
  INVALID_PARAMS,
  type ListToolsResult,
  ProtocolError,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import type { MockRuleInput } from '../../plugins/network/protocol.js';
import type { ToolResultJson } from '../../shared/call-record.js';
import { CALL_ID_META, RAW_VALUE_META, STATUS_META } from '../../shared/tool.js';
import { resolveDataDir } from '../host/data-dir.js';
import { readInstance } from '../host/instance-file.js';
import { SURFACE_HEADER } from '../host/mcp/mcp-http.js';
import { readToken } from '../host/mcp/mcp-token.js';
import { VERSION } from '../host/version.js';
import {
  type CheckScope,
  type ConsoleErrorsOptions,
  expectNoConsoleErrors,
  expectNoFailedRequests,
  type FailedRequest,
  type FailedRequestsOptions,
  findConsoleErrors,
  findFailedRequests,
  type LoggedError,
} from './expectations.js';
import type { ArgsParameter, ToolArgs, ToolMethods, ToolName, ToolValue } from './tool-types.js';

export interface ConnectInspectorOptions {
  /** The inspector's data dir (found through its instance.json): default `$PORTHOLE_DATA_DIR` or the OS config dir. */
  dataDir?: string;
  /** The inspector's MCP endpoint, instead of the data dir's instance.json. */
  url?: string;
  /** The MCP bearer token; default the data dir's `mcp-token`. */
  token?: string;
  /** How the call history names this caller. Default "porthole-client". */
  clientName?: string;
  /** @internal `porthole call` records its calls as `cli`. */
  surface?: 'script' | 'cli';
}

/** Why the client could not reach the inspector; the message says what to do. */
export class InspectorUnavailableError extends Error {
  override name = 'InspectorUnavailableError';
}

/** A tool call that did not succeed: failed, refused by the user's permissions, or cancelled. */
export class ToolCallError extends Error {
  override name = 'ToolCallError';
  constructor(
    readonly tool: string,
    message: string,
    /** `failed`, `refused`, `cancelled`, as the call history records it. */
    readonly status: string,
    readonly callId: string | undefined,
  ) {
    super(message);
  }
}

/** One finished call as the CLI prints it. */
export interface RawCall {
  callId?: string;
  /** The handler's own value, for tools that declare an output. */
  value?: unknown;
  /** The result's content: text and images. */
  result: ToolResultJson;
}

export interface ToolListing {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

interface MockRuleHandle {
  rule: { id: string };
}

export type NetworkHelpers = {
  /**
   * Sets a mock rule (as network_set_mock_rules { op: "add" } takes it) for the duration of `block`,
   * then removes it, also when the block throws.
   */
  mock<T>(rule: MockRuleInput & { sessionId?: string }, block: () => Promise<T> | T): Promise<T>;
  /** Writes the session's requests as a HAR file (all of them, bodies whole, unless `args` narrow it) and returns the log. */
  saveHar(path: string, args?: ToolArgs<'network_export_har'>): Promise<ToolValue<'network_export_har'>>;
};

/** The plugins' tools as methods, with the client's helpers. */
export type PluginMethods = {
  network: ToolMethods<'network'> & NetworkHelpers;
  console: ToolMethods<'console'>;
  example: ToolMethods<'example'>;
};

/** The checks tests make; each throws a PortholeExpectationError whose message names every failure. */
export interface Checks {
  /**
   * Throws, naming each (method, URL, status or error), if requests failed or answered with a status
   * of 400 or more (answers of mock rules excepted: those are what the test asked for).
   */
  expectNoFailedRequests(options?: FailedRequestsOptions): Promise<void>;
  /** Throws, naming each (text, count, site), if the app logged errors (uncaught, unhandled rejections, console.error). */
  expectNoConsoleErrors(options?: ConsoleErrorsOptions): Promise<void>;
  /** The failed requests the check would name (an empty list when there are none). */
  failedRequests(options?: FailedRequestsOptions): Promise<FailedRequest[]>;
  /** The errors the check would name. */
  consoleErrors(options?: ConsoleErrorsOptions): Promise<LoggedError[]>;
}

type SessionInfo = ToolValue<'inspector_list_sessions'>['sessions'][number];

/** Which session `waitForSession` waits for: every field given must match. */
export interface SessionMatch {
  appId?: string;
  deviceId?: string;
  /** Default true: only a connected app. */
  active?: boolean;
  /** Any other condition on the session. */
  where?: (session: SessionInfo) => boolean;
}

export type Inspector = ToolMethods<'inspector'> &
  PluginMethods &
  Checks & {
    /** Any tool by name, with typed arguments and value. */
    call<N extends ToolName>(name: N, ...args: ArgsParameter<N>): Promise<ToolValue<N>>;
    /** Any tool, also a third-party plugin's, untyped; failures still throw ToolCallError. */
    callRaw(name: string, args?: Record<string, unknown>): Promise<RawCall>;
    /** The tools the inspector serves now, with their JSON Schemas. */
    tools(): Promise<ToolListing[]>;
    /** The same client with every plugin tool and check aimed at this session (no `sessionId` to pass). */
    session(sessionId: string): PortholeSession;
    /** Waits (default 10 s) for a session that matches, e.g. the app a test started; throws naming the sessions seen. */
    waitForSession(match: SessionMatch, options?: { timeoutMs?: number }): Promise<SessionInfo>;
    close(): Promise<void>;
  };

/** A client aimed at one app's session(s): plugin tools and checks need no `sessionId`. */
export type PortholeSession = PluginMethods &
  Checks & {
    /** Any plugin tool by name; the session is added unless given. */
    call<N extends ToolName>(name: N, ...args: ArgsParameter<N>): Promise<ToolValue<N>>;
    /** Any plugin tool, also a third-party plugin's, untyped; the session is added unless given. */
    callRaw(name: string, args?: Record<string, unknown>): Promise<RawCall>;
    /** The session plugin tools are called on now. */
    sessionId(): Promise<string>;
    /** Every session the checks cover (an app that reloaded or opened pages may have several). */
    sessionIds(): Promise<string[]>;
    /** The whole client: `inspector_*` tools, other sessions. */
    readonly inspector: Inspector;
  };

/** How a PortholeSession finds its sessions; the Playwright fixture and startService build their own. */
export interface SessionScope {
  /** The session plugin tools go to. */
  target(): Promise<string>;
  /** The sessions the checks cover; default the target. */
  sessions?(): Promise<string[]>;
  /** Runs before each check: e.g. makes a page's agent send what it holds. */
  settle?(): Promise<void>;
  /** How a session is named in a failure message that lists several. */
  describe?(sessionId: string | undefined): string | undefined;
  /** Sees each plugin tool's value (e.g. the mock config a change answered); the call returns after it. */
  observe?(tool: string, value: unknown): void | Promise<void>;
}

type CallFn = (name: string, args?: Record<string, unknown>) => Promise<unknown>;

/**
 * Connects to the running inspector over its MCP endpoint, with the MCP token, as an MCP client
 * would (same tools, same permissions, same history); calls answer with the handler's raw value.
 * It speaks the 2026-07-28 era: no session to open or leave behind, so a one-shot `porthole call`
 * costs the inspector nothing once it has exited.
 */
export async function connectInspector(options: ConnectInspectorOptions = {}): Promise<Inspector> {
  const { url, token } = locate(options);
  const client = new Client(
    { name: options.clientName ?? 'porthole-client', version: VERSION },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: {
      headers: {
        [SURFACE_HEADER]: options.surface ?? 'script',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    },
  });
  try {
    await client.connect(transport);
  } catch (e) {
    throw new InspectorUnavailableError(
      `could not reach the Porthole inspector at ${url}: ${(e as Error).message}. Check that it is running (porthole serve) and that the token is the one in its data dir.`,
    );
  }

  // Raw requests, not client.callTool/listTools: those check structuredContent against the output
  // schemas, which describe the MCP projection, not the raw value this surface gets.
  const callRaw = async (name: string, args: Record<string, unknown> = {}): Promise<RawCall> => {
    const answer: CallToolResult = await client
      .request({ method: 'tools/call', params: { name, arguments: args } }, { timeout: 10 * 60_000 })
      .catch((e: unknown) => {
        // An unknown tool is a protocol error (-32602); it is still a call the history recorded.
        if (!(e instanceof ProtocolError) || e.code !== INVALID_PARAMS) throw e;
        const callId = (e.data as { callId?: unknown } | undefined)?.callId;
        throw new ToolCallError(
          name,
          e.message.replace(/^MCP error -?\d+: /, ''),
          'failed',
          typeof callId === 'string' ? callId : undefined,
        );
      });
    const meta = (answer._meta ?? {}) as Record<string, unknown>;
    const callId = typeof meta[CALL_ID_META] === 'string' ? (meta[CALL_ID_META] as string) : undefined;
    const result = {
      content: answer.content,
      ...(answer.structuredContent ? { structuredContent: answer.structuredContent } : {}),
      isError: answer.isError ?? false,
    } as ToolResultJson;
    if (answer.isError) {
      const message = answer.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n') || `${name} failed`;
      throw new ToolCallError(name, message, String(meta[STATUS_META] ?? 'failed'), callId);
    }
    return { callId, result, value: meta[RAW_VALUE_META] };
  };
  // The handler's value; for a tool without an output that answers one JSON object, that object.
  const call: CallFn = async (name, args) => {
    const done = await callRaw(name, args);
    if (done.value !== undefined) return done.value;
    return done.result.structuredContent ?? done.result;
  };
  const tools = async (): Promise<ToolListing[]> => {
    const listed: ToolListing[] = [];
    let cursor: string | undefined;
    do {
      const page: ListToolsResult = await client.request({
        method: 'tools/list',
        params: cursor ? { cursor } : {},
      });
      listed.push(...(page.tools as ToolListing[]));
      cursor = page.nextCursor;
    } while (cursor);
    return listed;
  };
  const names = (await tools()).map((t) => t.name);

  const inspector = {
    call: (name: string, args?: Record<string, unknown>) => call(name, args),
    callRaw,
    tools,
    close: () => client.close(),
  } as Record<string, unknown>;
  for (const name of names)
    if (name.startsWith('inspector_')) inspector[methodOf(name)] ??= (a?: Record<string, unknown>) => call(name, a);
  Object.assign(inspector, pluginMethods(names, call, undefined));
  Object.assign(inspector, checks(call, { sessions: async () => [undefined] }));
  inspector.session = (sessionId: string) =>
    scopeSession(inspector as unknown as Inspector, names, call, { target: async () => sessionId });
  inspector.waitForSession = (match: SessionMatch, opts?: { timeoutMs?: number }) => waitForSession(call, match, opts);
  built.set(inspector, { names, call });
  return inspector as unknown as Inspector;
}

/** What a connected client was built from: its tool names and its raw-value call. */
const built = new WeakMap<object, { names: string[]; call: CallFn }>();

/**
 * A client aimed at the sessions `scope` names, built on a connected one: what the Playwright
 * fixture and startService give a test.
 */
export function scopedSession(inspector: Inspector, scope: SessionScope): PortholeSession {
  const made = built.get(inspector);
  if (!made) throw new TypeError('scopedSession needs a client made by connectInspector');
  return scopeSession(inspector, made.names, made.call, scope);
}

function scopeSession(inspector: Inspector, names: string[], call: CallFn, scope: SessionScope): PortholeSession {
  const route = async (name: string, args: Record<string, unknown>) =>
    name.startsWith('inspector_') || args.sessionId !== undefined ? args : { ...args, sessionId: await scope.target() };
  const scoped: CallFn = async (name, args = {}) => {
    const value = await call(name, await route(name, args));
    await scope.observe?.(name, value);
    return value;
  };
  const callRaw = async (name: string, args: Record<string, unknown> = {}) => {
    const done = await inspector.callRaw(name, await route(name, args));
    await scope.observe?.(name, done.value);
    return done;
  };
  const sessions = async () => (scope.sessions ? await scope.sessions() : [await scope.target()]);
  const settle = scope.settle && (() => scope.settle!());
  return {
    ...pluginMethods(names, scoped, scope),
    ...checks(call, { sessions, settle, describe: scope.describe }),
    call: scoped,
    callRaw,
    sessionId: () => scope.target(),
    sessionIds: sessions,
    inspector,
  } as unknown as PortholeSession;
}

/** `network_list_transactions` → `network.listTransactions`, for every plugin tool listed. */
function pluginMethods(
  names: string[],
  call: CallFn,
  scope: SessionScope | undefined,
): Record<string, Record<string, unknown>> {
  const namespaces: Record<string, Record<string, unknown>> = { network: {}, console: {}, example: {} };
  for (const name of names) {
    if (name.startsWith('inspector_')) continue;
    const prefix = name.slice(0, name.indexOf('_'));
    (namespaces[prefix] ??= {})[methodOf(name)] ??= (args?: Record<string, unknown>) => call(name, args);
  }
  Object.assign(namespaces.network as object, networkHelpers(call, scope));
  return namespaces;
}

function checks(call: CallFn, scope: CheckScope): Checks {
  return {
    expectNoFailedRequests: (options) => expectNoFailedRequests(call, scope, options),
    expectNoConsoleErrors: (options) => expectNoConsoleErrors(call, scope, options),
    failedRequests: (options) => findFailedRequests(call, scope, options),
    consoleErrors: (options) => findConsoleErrors(call, scope, options),
  };
}

function networkHelpers(call: CallFn, scope: SessionScope | undefined): NetworkHelpers {
  return {
    async mock(rule, block) {
      const { sessionId: given, ...ruleOnly } = rule;
      // The rule is removed from the session it was added to, whatever the scope says by then.
      const sessionId = given ?? (scope ? await scope.target() : undefined);
      const where = sessionId ? { sessionId } : {};
      const added = (await call('network_set_mock_rules', { op: 'add', rule: ruleOnly, ...where })) as MockRuleHandle;
      try {
        return await block();
      } finally {
        await call('network_set_mock_rules', { op: 'remove', id: added.rule.id, ...where });
      }
    },
    async saveHar(path, args) {
      const har = await call('network_export_har', {
        maxEntries: 5000,
        maxBodyChars: 5_000_000,
        ...(args as Record<string, unknown> | undefined),
      });
      await writeFile(path, `${JSON.stringify(har, null, 2)}\n`);
      return har as ToolValue<'network_export_har'>;
    },
  };
}

async function waitForSession(
  call: CallFn,
  match: SessionMatch,
  { timeoutMs = 10_000 }: { timeoutMs?: number } = {},
): Promise<SessionInfo> {
  const deadline = Date.now() + timeoutMs;
  const wanted = (s: SessionInfo) =>
    (match.appId === undefined || s.app.id === match.appId) &&
    (match.deviceId === undefined || s.device.id === match.deviceId) &&
    (match.active === false || s.active) &&
    (!match.where || match.where(s));
  let seen: SessionInfo[] = [];
  for (;;) {
    seen = await listAllSessions(call);
    const found = seen.filter(wanted).sort((a, b) => b.lastConnectedAt - a.lastConnectedAt)[0];
    if (found) return found;
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const what = [
    match.appId && `app "${match.appId}"`,
    match.deviceId && `device "${match.deviceId}"`,
    match.active !== false && 'connected',
  ]
    .filter(Boolean)
    .join(', ');
  const listed = seen.length
    ? seen.map((s) => `${s.app.id} on ${s.device.id}${s.active ? '' : ' (disconnected)'}`).join('; ')
    : 'none';
  throw new InspectorUnavailableError(
    `no session (${what || 'any'}) within ${timeoutMs} ms; the inspector has: ${listed}. Check that the app connects to this inspector (PORTHOLE_URL, the agent's url) with that app id.`,
  );
}

/** Every session, over all pages of inspector_list_sessions. */
export async function listAllSessions(call: CallFn): Promise<SessionInfo[]> {
  const all: SessionInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = (await call('inspector_list_sessions', {
      limit: 256,
      ...(cursor ? { cursor } : {}),
    })) as ToolValue<'inspector_list_sessions'>;
    all.push(...page.sessions);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}

/** The MCP endpoint and token: given, or read from the data dir the inspector writes. */
function locate(options: ConnectInspectorOptions): { url: string; token?: string } {
  const dataDir = resolveDataDir(options.dataDir);
  if (options.url) return { url: options.url, token: options.token ?? readToken(dataDir) };
  const instance = readInstance(dataDir);
  if (!instance) {
    throw new InspectorUnavailableError(
      `no Porthole inspector is running for the data dir ${dataDir}. Start it (the desktop app, or \`porthole serve --data-dir ${dataDir}\`), or pass the data dir it uses.`,
    );
  }
  return { url: instance.mcpUrl, token: options.token ?? readToken(dataDir) };
}

const camel = (snake: string) => snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const methodOf = (tool: string) => camel(tool.slice(tool.indexOf('_') + 1));
