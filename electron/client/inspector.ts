import { writeFile } from 'node:fs/promises';
import {
  type CallToolResult,
  Client,
  INVALID_PARAMS,
  type ListToolsResult,
  ProtocolError,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import type { ToolResultJson } from '../../shared/call-record.js';
import { CALL_ID_META, RAW_VALUE_META, STATUS_META } from '../../shared/tool.js';
import { resolveDataDir } from '../host/data-dir.js';
import { readInstance } from '../host/instance-file.js';
import { SURFACE_HEADER } from '../host/mcp/mcp-http.js';
import { readToken } from '../host/mcp/mcp-token.js';
import { VERSION } from '../host/version.js';
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

type NetworkHelpers = {
  /** Sets a mock rule (as network_add_mock_rule takes it) for the duration of `block`, then removes it. */
  mock<T>(rule: ToolArgs<'network_add_mock_rule'>, block: () => Promise<T> | T): Promise<T>;
  /** Writes the session's requests as a HAR file (all of them unless `args` narrow it) and returns the log. */
  saveHar(path: string, args?: ToolArgs<'network_export_har'>): Promise<ToolValue<'network_export_har'>>;
};

export type Inspector = ToolMethods<'inspector'> & {
  network: ToolMethods<'network'> & NetworkHelpers;
  console: ToolMethods<'console'>;
  example: ToolMethods<'example'>;
  /** Any tool by name, with typed arguments and value. */
  call<N extends ToolName>(name: N, ...args: ArgsParameter<N>): Promise<ToolValue<N>>;
  /** Any tool, also a third-party plugin's, untyped; failures still throw ToolCallError. */
  callRaw(name: string, args?: Record<string, unknown>): Promise<RawCall>;
  /** The tools the inspector serves now, with their JSON Schemas. */
  tools(): Promise<ToolListing[]>;
  /**
   * Throws (listing them) if the app's session has requests that failed or answered with a status ≥ 400
   * (answers of mock rules excepted: those are what the test asked for).
   */
  expectNoFailedRequests(options?: { sessionId?: string; since?: number }): Promise<void>;
  /** Throws (listing them) if the app logged errors (uncaught, unhandled rejections, console.error). */
  expectNoConsoleErrors(options?: { sessionId?: string; since?: number }): Promise<void>;
  close(): Promise<void>;
};

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
    const result = { content: answer.content, isError: answer.isError } as ToolResultJson;
    if (answer.isError) {
      const message = answer.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n') || `${name} failed`;
      throw new ToolCallError(name, message, String(meta[STATUS_META] ?? 'failed'), callId);
    }
    return { callId, result, value: meta[RAW_VALUE_META] };
  };
  const call = async (name: string, args?: Record<string, unknown>) => {
    const done = await callRaw(name, args);
    return done.value !== undefined ? done.value : done.result;
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

  const inspector: Record<string, unknown> = {
    call: (name: string, args?: Record<string, unknown>) => call(name, args),
    callRaw,
    tools,
    close: () => client.close(),
  };
  const namespaces: Record<string, Record<string, unknown>> = { network: {}, console: {}, example: {} };
  for (const tool of await tools()) {
    const split = tool.name.indexOf('_');
    const prefix = tool.name.slice(0, split);
    const method = camel(tool.name.slice(split + 1));
    const target = prefix === 'inspector' ? inspector : (namespaces[prefix] ??= {});
    target[method] ??= (args?: Record<string, unknown>) => call(tool.name, args);
  }
  Object.assign(inspector, namespaces);
  Object.assign(namespaces.network as object, networkHelpers(call));
  inspector.expectNoFailedRequests = async (opts: { sessionId?: string; since?: number } = {}) => {
    const failures: string[] = [];
    for (const filter of [{ failedOnly: true }, { status: { min: 400, max: 999 } }]) {
      const page = (await call('network_list_transactions', { ...opts, ...filter, limit: 500 })) as {
        transactions: { method: string; url: string; status?: number; error?: string; mockRuleId?: string }[];
      };
      for (const t of page.transactions)
        if (!t.mockRuleId) failures.push(`${t.method} ${t.url} → ${t.status ?? t.error ?? 'failed'}`);
    }
    if (failures.length) throw new Error(`${failures.length} request(s) failed:\n  ${failures.join('\n  ')}`);
  };
  inspector.expectNoConsoleErrors = async (opts: { sessionId?: string; since?: number } = {}) => {
    const { groups } = (await call('console_list_errors', { ...opts, limit: 200 })) as {
      groups: { message: string; count: number }[];
    };
    if (groups.length) {
      throw new Error(
        `the app logged ${groups.length} error(s):\n  ${groups.map((g) => `${g.message} (×${g.count})`).join('\n  ')}`,
      );
    }
  };
  return inspector as unknown as Inspector;
}

function networkHelpers(call: (name: string, args?: Record<string, unknown>) => Promise<unknown>): NetworkHelpers {
  return {
    async mock(rule, block) {
      const { sessionId } = rule as { sessionId?: string };
      const added = (await call('network_add_mock_rule', rule as Record<string, unknown>)) as MockRuleHandle;
      try {
        return await block();
      } finally {
        await call('network_remove_mock_rule', { id: added.rule.id, ...(sessionId ? { sessionId } : {}) });
      }
    },
    async saveHar(path, args) {
      const har = await call('network_export_har', { maxEntries: 5000, maxBodyChars: 5_000_000, ...args });
      await writeFile(path, `${JSON.stringify(har, null, 2)}\n`);
      return har as ToolValue<'network_export_har'>;
    },
  };
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
