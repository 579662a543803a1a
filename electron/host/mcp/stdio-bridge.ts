import type { Readable, Writable } from 'node:stream';
import {
  isInitializeRequest,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
  PROTOCOL_VERSION_META_KEY,
  SdkHttpError,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { readInstance } from '../instance-file.js';
import { SURFACE_HEADER } from './mcp-http.js';
import { readToken } from './mcp-token.js';

export interface StdioBridgeOptions {
  dataDir: string;
  stdin?: Readable;
  stdout?: Writable;
  /** Diagnostics (stdout carries the protocol): stderr by default. */
  log?: (message: string) => void;
  /** `--plugins network,console`: this client's tools/list shows only these plugins' tools (and the inspector's). */
  plugins?: string;
}

const REPLAY_ID = 'porthole-bridge-reinitialize';

/**
 * `porthole mcp`: an MCP server on stdio that forwards every JSON-RPC message, unchanged, to the
 * running inspector's `/mcp` (found through `<data-dir>/instance.json`) and back, in either
 * protocol era. A 2025-era client's own initialize opens an inspector session; a 2026-07-28
 * client's requests carry their version and client info in `_meta` and go as they are (the HTTP
 * transport adds the Mcp-Method / Mcp-Name headers from them). Either way the client's name and
 * version land in the call history; the `x-porthole-surface: mcp-stdio` header marks its calls.
 * Being the same server, both transports behave identically. If the inspector restarts, the
 * bridge finds it again (and, for a 2025-era client, opens a new session by replaying its
 * initialize), so the MCP client does not have to be restarted.
 */
export async function runStdioBridge(options: StdioBridgeOptions): Promise<number> {
  const log = options.log ?? ((message: string) => process.stderr.write(`porthole mcp: ${message}\n`));
  const instance = readInstance(options.dataDir);
  if (!instance) {
    log(
      `no Porthole inspector is running for the data dir ${options.dataDir}. Start it first (the desktop app, or \`porthole serve --data-dir ${options.dataDir}\`), then restart this MCP server. If the inspector uses another data dir, pass the same --data-dir here.`,
    );
    return 1;
  }

  const stdin = options.stdin ?? process.stdin;
  const stdio = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  let initialize: JSONRPCRequest | undefined;
  let protocolVersion: string | undefined;
  let replaying: ((message: JSONRPCMessage) => boolean) | undefined;

  /**
   * 2026-07-28 requests still being answered: over HTTP that era cancels a request by closing its
   * stream, while a stdio client sends notifications/cancelled, so the bridge turns one into the other.
   */
  const inFlight = new Map<string | number, AbortController>();

  const connect = async (url: string): Promise<StreamableHTTPClientTransport> => {
    const token = readToken(options.dataDir);
    const endpoint = new URL(url);
    if (options.plugins !== undefined) endpoint.searchParams.set('plugins', options.plugins);
    const transport = new StreamableHTTPClientTransport(endpoint, {
      requestInit: {
        headers: { [SURFACE_HEADER]: 'mcp-stdio', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      },
    });
    transport.onmessage = (message) => {
      if (replaying?.(message)) return;
      if ('id' in message && !('method' in message) && message.id !== undefined) inFlight.delete(message.id);
      if (initialize && 'result' in message && message.id === initialize.id) {
        protocolVersion = (message.result as { protocolVersion?: string }).protocolVersion;
        if (protocolVersion) transport.setProtocolVersion(protocolVersion);
      }
      stdio.send(message).catch((e) => log(`could not write to the MCP client: ${(e as Error).message}`));
    };
    transport.onerror = (e) => log(`link to the inspector: ${e.message}`);
    await transport.start();
    return transport;
  };

  let upstream = await connect(instance.mcpUrl);
  let url = instance.mcpUrl;

  /** A new inspector session for the same client: initialize again (its answer is not forwarded). */
  const reconnect = async () => {
    const current = readInstance(options.dataDir);
    if (!current) throw new Error(`the inspector stopped (no instance in ${options.dataDir}); start it again`);
    await upstream.close().catch(() => {});
    url = current.mcpUrl;
    upstream = await connect(url);
    if (!initialize) return;
    const answered = new Promise<void>((resolve) => {
      replaying = (message) => {
        if (!('id' in message) || message.id !== REPLAY_ID) return false;
        replaying = undefined;
        resolve();
        return true;
      };
    });
    await upstream.send({ ...initialize, id: REPLAY_ID });
    await answered;
    if (protocolVersion) upstream.setProtocolVersion(protocolVersion);
    await upstream.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    log(`reconnected to the inspector at ${url}`);
  };

  const cancelled = (message: JSONRPCMessage): boolean => {
    if (!('method' in message) || message.method !== 'notifications/cancelled') return false;
    const requestId = (message.params as { requestId?: string | number } | undefined)?.requestId;
    const controller = requestId === undefined ? undefined : inFlight.get(requestId);
    if (!controller) return false;
    inFlight.delete(requestId as string | number);
    controller.abort();
    return true;
  };

  const forward = async (message: JSONRPCMessage) => {
    if (isInitializeRequest(message)) initialize = message as JSONRPCRequest;
    if (cancelled(message)) return;
    let options: { requestSignal: AbortSignal } | undefined;
    if (isJSONRPCRequest(message) && isModern(message)) {
      const controller = new AbortController();
      inFlight.set(message.id, controller);
      options = { requestSignal: controller.signal };
    }
    try {
      await upstream.send(message, options);
    } catch (e) {
      if (options?.requestSignal.aborted) return; // cancelled by the client, which expects no answer
      if (isInitializeRequest(message) || !inspectorWentAway(e) || !(initialize || isModern(message))) throw e;
      await reconnect();
      await upstream.send(message, options);
    }
  };

  stdio.onmessage = (message) => {
    forward(message).catch((e: Error) => {
      const refused = refusalOf(e);
      const error = refused ?? {
        code: -32000,
        message: `the Porthole inspector at ${url} did not take the message: ${e.message}. Is it still running? Start it again (desktop app or \`porthole serve\`).`,
      };
      log(error.message);
      if (isJSONRPCRequest(message)) {
        stdio.send({ jsonrpc: '2.0', id: message.id, error }).catch(() => {});
      }
    });
  };
  stdio.onerror = (e) => log(`stdin: ${e.message}`);

  const done = new Promise<number>((resolve) => {
    const finish = () => resolve(0);
    stdin.once('end', finish);
    stdin.once('close', finish);
    stdio.onclose = finish;
  });
  await stdio.start();
  const code = await done;
  await upstream.terminateSession().catch(() => {});
  await upstream.close().catch(() => {});
  return code;
}

/** A 2026-07-28 message: its protocol version is in its `_meta` (no session to replay). */
function isModern(message: JSONRPCMessage): boolean {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
  return typeof meta?.[PROTOCOL_VERSION_META_KEY] === 'string';
}

/** The inspector restarted (its sessions are gone) or stopped listening. */
function inspectorWentAway(error: unknown): boolean {
  if (error instanceof SdkHttpError) return error.status === 404;
  const cause = (error as { cause?: { code?: string } })?.cause;
  return error instanceof TypeError && (cause?.code === 'ECONNREFUSED' || cause?.code === 'ECONNRESET');
}

/**
 * The inspector answered but refused the request (413 body too large, 401, 403…): its own JSON-RPC
 * error, which says why and what to do, rather than "is it still running?".
 */
function refusalOf(error: unknown): { code: number; message: string } | undefined {
  if (!(error instanceof SdkHttpError) || error.status < 400) return undefined;
  const text =
    typeof error.data.text === 'string' ? error.data.text : error.message.replace(/^Error POSTing to endpoint: /, '');
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.message === 'string') {
      const code = typeof body.error.code === 'number' ? body.error.code : -32000;
      return { code, message: `the inspector refused the request (HTTP ${error.status}): ${body.error.message}` };
    }
  } catch {
    // not JSON: pass the text on as it is
  }
  return { code: -32000, message: `the inspector refused the request (HTTP ${error.status}): ${text}` };
}
