import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  INTERNAL_ERROR,
  isJsonContentType,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
} from '@modelcontextprotocol/server';
import type { ClientInfo } from '../../../shared/call-record.js';
import type { McpSurface } from '../../../shared/tool.js';
import type { ClientAsker } from '../permissions/permissions.js';
import type { ToolService } from '../tools/tool-service.js';
import { mcpToolCall, modernAsker, SERVER_INFO } from './mcp-server-factory.js';

const MODERN = '2026-07-28';
/** Envelopes known good, at most this many (a client sends the same one with every request). */
const MAX_KNOWN_ENVELOPES = 256;
/** A tool name the Mcp-Name header carries as it is (no Base64 sentinel, no whitespace to strip). */
const PLAIN_NAME = /^[A-Za-z0-9_.-]+$/;

/** A tools/call the fast path may answer. */
export interface FastCall {
  id: string | number;
  name: string;
  args: Record<string, unknown> | undefined;
  client: ClientInfo | undefined;
  /** The client declared elicitation: a tool that asks ends the call with input_required. */
  asker: ClientAsker | undefined;
}

/**
 * The hot 2026-07-28 request, tools/call, answered without the SDK's per-request server, transport
 * and validation ladder — exactly as the SDK answers it (modern-tools-call.test.ts sends the same
 * requests both ways and compares the whole answers). It takes only the plain case: one request,
 * no extra members, a registered tool whose name is in Mcp-Name as it is, Mcp-Method tools/call,
 * no progress token (so nothing is streamed before the result), and an envelope (`_meta`, with the
 * same Content-Type, Accept and MCP-Protocol-Version headers) the SDK has already accepted in a
 * tools/call of the same shape — the SDK stays the judge of what a valid envelope is. Anything
 * else goes to the SDK.
 */
export class ModernToolsCall {
  private readonly known = new Set<string>();
  private readonly running = new Set<AbortController>();

  constructor(private readonly tools: ToolService) {}

  /** The call, when the fast path may answer this request. */
  match(req: IncomingMessage, body: unknown): FastCall | undefined {
    const plain = this.plainCall(req, body);
    if (!plain || !this.known.has(plain.envelopeKey)) return undefined;
    return plain.call;
  }

  /** After the SDK answered `status` to this request: a 200 means its envelope passed the SDK's checks. */
  learn(req: IncomingMessage, body: unknown, status: number): void {
    if (status !== 200) return;
    const plain = this.plainCall(req, body);
    if (!plain) return;
    if (this.known.size >= MAX_KNOWN_ENVELOPES) this.known.clear();
    this.known.add(plain.envelopeKey);
  }

  /** Answers the call as the SDK would: the result with resultType and the server's identity in `_meta`, as JSON. */
  async serve(res: ServerResponse, call: FastCall, surface: McpSurface): Promise<void> {
    const abort = new AbortController();
    this.running.add(abort);
    const onClose = () => {
      if (!res.writableFinished) abort.abort();
    };
    res.once('close', onClose);
    let message: Record<string, unknown>;
    try {
      const run = mcpToolCall(this.tools, { surface, era: 'modern' }, () => call.client);
      const result = (await run(call.name, call.args, abort.signal, undefined, call.asker)) as Record<string, unknown>;
      message = { result: encodeResult(result), jsonrpc: '2.0', id: call.id };
    } catch (e) {
      const error = e as { code?: unknown; message?: string; data?: unknown };
      const code = Number.isSafeInteger(error.code) ? (error.code as number) : INTERNAL_ERROR;
      message = {
        jsonrpc: '2.0',
        id: call.id,
        error: {
          code,
          message: error.message ?? 'Internal error',
          ...(error.data !== undefined && { data: error.data }),
        },
      };
    } finally {
      this.running.delete(abort);
      res.off('close', onClose);
    }
    // The SDK answers nothing to a client gone or a handler closed (499 on a closed exchange).
    if (abort.signal.aborted) {
      if (!res.headersSent && !res.destroyed) res.writeHead(499).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
  }

  /** Ends the calls still running (the endpoint closes), as closing the SDK's in-flight servers does. */
  close(): void {
    for (const abort of this.running) abort.abort();
    this.running.clear();
  }

  private plainCall(req: IncomingMessage, body: unknown): { call: FastCall; envelopeKey: string } | undefined {
    const { headers } = req;
    if (req.method !== 'POST' || headers['mcp-method'] !== 'tools/call') return undefined;
    const version = headers['mcp-protocol-version'];
    const contentType = headers['content-type'];
    if (version !== MODERN || !isJsonContentType(contentType ?? null)) return undefined;
    if (!isPlainObject(body) || !onlyKeys(body, REQUEST_KEYS)) return undefined;
    const { jsonrpc, id, method, params } = body;
    if (jsonrpc !== '2.0' || method !== 'tools/call') return undefined;
    if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
    if (!isPlainObject(params) || !onlyKeys(params, PARAMS_KEYS)) return undefined;
    const { name, arguments: args, _meta: meta } = params;
    if (typeof name !== 'string' || !PLAIN_NAME.test(name) || headers['mcp-name'] !== name) return undefined;
    if (!this.tools.get(name)) return undefined;
    if (args !== undefined && !isPlainObject(args)) return undefined;
    if (!isPlainObject(meta) || meta[PROTOCOL_VERSION_META_KEY] !== MODERN || 'progressToken' in meta) return undefined;
    const info = meta[CLIENT_INFO_META_KEY] as { name: string; version: string } | undefined;
    return {
      call: {
        id: id as string | number,
        name,
        args,
        client: info ? { name: info.name, version: info.version } : undefined,
        asker: modernAsker({}, meta[CLIENT_CAPABILITIES_META_KEY]),
      },
      envelopeKey: `${contentType}\n${headers.accept ?? ''}\n${JSON.stringify(meta)}`,
    };
  }
}

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAMS_KEYS = new Set(['name', 'arguments', '_meta']);

/** The SDK's encoding of a tools/call result in 2026-07-28: `resultType`, then its identity in `_meta` unless the handler set one. */
function encodeResult(result: Record<string, unknown>): Record<string, unknown> {
  const typed = result.resultType === undefined ? { ...result, resultType: 'complete' } : result;
  const meta = typed._meta;
  if (meta === undefined) return { ...typed, _meta: { [SERVER_INFO_META_KEY]: SERVER_INFO } };
  if (!isPlainObject(meta) || meta[SERVER_INFO_META_KEY] !== undefined) return typed;
  return { ...typed, _meta: { ...meta, [SERVER_INFO_META_KEY]: SERVER_INFO } };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function onlyKeys(object: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in object) if (!allowed.has(key)) return false;
  return true;
}
