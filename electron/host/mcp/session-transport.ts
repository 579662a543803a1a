import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';

/** One POST's requests and how their answers go out: one JSON body, or an SSE stream once something came first. */
interface Exchange {
  res: ServerResponse;
  pending: Set<RequestId>;
  answers: JSONRPCMessage[];
  streaming: boolean;
}

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' };

/**
 * The server side of one 2025-era Streamable HTTP session (2025-06-18 / 2025-11-25), on Node's
 * own request and response. A POST with requests is answered with one JSON body, unless the
 * server sends something related first (progress while a call waits for the user's permission):
 * then the answer becomes an SSE stream. GET opens the session's stream for server notifications
 * (tools/list_changed); DELETE ends the session. The endpoint has already checked the token, the
 * Origin, the body size and the session id, and parsed the body.
 *
 * Not the SDK's NodeStreamableHTTPServerTransport: that one converts every exchange to a web
 * Request/Response pair, re-validates each message with zod and always answers with an SSE
 * stream, which made a tools/call cost about twice the HTTP round trip itself (bench mcp-tool).
 */
export class SessionTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private readonly exchanges = new Map<RequestId, Exchange>();
  private stream: ServerResponse | undefined;
  private closed = false;

  constructor(readonly sessionId: string) {}

  async start(): Promise<void> {}

  /** Serves one HTTP exchange of this session. */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    if (req.method === 'DELETE') {
      res.writeHead(200, { 'mcp-session-id': this.sessionId }).end();
      void this.close();
      return;
    }
    const accept = req.headers.accept ?? '';
    if (req.method === 'GET') {
      if (!accept.includes('text/event-stream')) {
        return reject(res, 406, 'Not Acceptable: the session stream needs Accept: text/event-stream');
      }
      if (this.stream) return reject(res, 409, 'Conflict: this session already has its stream open');
      this.stream = res;
      res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.sessionId });
      res.flushHeaders();
      res.once('close', () => {
        if (this.stream === res) this.stream = undefined;
      });
      return;
    }
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      return reject(res, 406, 'Not Acceptable: send Accept: application/json, text/event-stream');
    }
    if (!(req.headers['content-type'] ?? '').includes('application/json')) {
      return reject(res, 415, 'Unsupported Media Type: the body must be application/json');
    }
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return reject(
        res,
        400,
        `Bad Request: unsupported protocol version ${version} (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      );
    }
    const messages = (Array.isArray(body) ? body : [body]) as JSONRPCMessage[];
    if (messages.length === 0 || !messages.every(isMessage)) {
      return reject(res, 400, 'Invalid Request: the body is not a JSON-RPC message (or a batch of them)', -32600);
    }
    const requests = messages.filter(isRequest);
    if (requests.length === 0) {
      res.writeHead(202, { 'mcp-session-id': this.sessionId }).end();
    } else {
      const exchange: Exchange = { res, pending: new Set(requests.map((r) => r.id)), answers: [], streaming: false };
      for (const { id } of requests) this.exchanges.set(id, exchange);
      res.once('close', () => {
        for (const id of exchange.pending) this.exchanges.delete(id);
      });
    }
    for (const message of messages) this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const isAnswer = 'result' in message || 'error' in message;
    const id = isAnswer ? (message.id as RequestId) : options?.relatedRequestId;
    const exchange = id === undefined ? undefined : this.exchanges.get(id);
    if (!exchange) {
      // Not tied to an open exchange (tools/list_changed, or an answer whose client left): the session stream.
      if (!isAnswer && this.stream && !this.stream.writableEnded) this.stream.write(sseEvent(message));
      return;
    }
    const { res } = exchange;
    if (!isAnswer || exchange.streaming) {
      if (!exchange.streaming) {
        exchange.streaming = true;
        res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.sessionId });
      }
      res.write(sseEvent(message));
      if (!isAnswer) return;
    } else {
      exchange.answers.push(message);
    }
    exchange.pending.delete(id as RequestId);
    this.exchanges.delete(id as RequestId);
    if (exchange.pending.size > 0) return;
    if (exchange.streaming) {
      res.end();
      return;
    }
    const [only] = exchange.answers;
    res
      .writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': this.sessionId })
      .end(JSON.stringify(exchange.answers.length === 1 ? only : exchange.answers));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const { res } of new Set(this.exchanges.values())) if (!res.writableEnded) res.end();
    this.exchanges.clear();
    this.stream?.end();
    this.stream = undefined;
    this.onclose?.();
  }
}

/** The JSON-RPC 2.0 shape only: the protocol layer checks each method's params itself. */
function isMessage(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null || (value as { jsonrpc?: unknown }).jsonrpc !== '2.0') return false;
  const { method, id } = value as { method?: unknown; id?: unknown };
  const validId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
  if (typeof method === 'string') return !('id' in value) || validId;
  return validId && ('result' in value || 'error' in value);
}

function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message;
}

function sseEvent(message: JSONRPCMessage): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

function reject(res: ServerResponse, status: number, message: string, code = -32000): void {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
