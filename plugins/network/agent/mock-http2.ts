import type { MatchableRequest } from './mock-match.js';
import { builtin } from './node-builtins.js';
import type { Http2Answer } from './observed.js';

// node:http2 requests a mock rule answers: the app's session stays connected to its server, and each
// answered request goes instead, with the same arguments, to a second session of the same authority
// whose other end is an in-process HTTP/2 server that answers with the rule (status, headers, body,
// trailers, after its delay; a network error destroys the app's stream with the rule's error). The
// app's stream is then a real ClientHttp2Stream, framed by Node as from a real server, and the tap
// records it as any other. The server of the app's session never sees it.

type Headers = Record<string, string | string[] | number | undefined>;

/** What both files use of a ClientHttp2Session. */
export interface Session {
  on(event: string, listener: (...a: unknown[]) => void): unknown;
  once(event: string, listener: (...a: unknown[]) => void): unknown;
  close(): void;
  destroy(): void;
  closed?: boolean;
  destroyed?: boolean;
}

interface ClientStream {
  destroy(error?: Error): void;
}

interface ServerStream {
  on(event: string, listener: (...a: unknown[]) => void): unknown;
  once(event: string, listener: (...a: unknown[]) => void): unknown;
  respond(headers: Headers, options?: { endStream?: boolean; waitForTrailers?: boolean }): void;
  write(chunk: Uint8Array): boolean;
  end(): void;
  close(code?: number): void;
  sendTrailers(headers: Headers): void;
  readonly closed: boolean;
  readonly destroyed: boolean;
}

interface NodeHttp2 {
  connect(authority: string, options: object): Session;
  createServer(): {
    on(event: string, l: (stream: ServerStream) => void): unknown;
    emit(e: string, s: unknown): boolean;
  };
  constants: { NGHTTP2_INTERNAL_ERROR: number; NGHTTP2_REFUSED_STREAM: number };
}

type DuplexCtor = new (
  options: object,
) => {
  push(chunk: unknown): boolean;
  destroy(error?: Error): void;
};

interface Line {
  session: Session;
  /** Answers in the order their streams were opened (the server hears of them in that order). */
  queue: { answer: Http2Answer; client?: ClientStream }[];
}

const lines = new WeakMap<object, Line>();

/** The origin of an app's session (Node keeps it under private symbols), or undefined. */
export function sessionOrigin(session: object): { scheme: string; authority: string } | undefined {
  let authority: unknown;
  let protocol: unknown;
  for (const symbol of Object.getOwnPropertySymbols(session)) {
    if (symbol.description === 'authority') authority = (session as Record<symbol, unknown>)[symbol];
    else if (symbol.description === 'protocol') protocol = (session as Record<symbol, unknown>)[symbol];
  }
  if (typeof authority !== 'string' || typeof protocol !== 'string') return undefined;
  return { scheme: protocol.replace(/:$/, ''), authority };
}

/** What a rule is matched against, from `session.request(headers)` before the stream exists. */
export function matchable(session: object, headers: unknown): MatchableRequest | undefined {
  const origin = sessionOrigin(session);
  if (!origin) return undefined;
  const h = (headers && typeof headers === 'object' ? headers : {}) as Headers;
  const lower = new Map(Object.entries(h).map(([n, v]) => [n.toLowerCase(), v]));
  const one = (name: string) => {
    const v = lower.get(name);
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : String(v);
  };
  const url = `${one(':scheme') ?? origin.scheme}://${one(':authority') ?? origin.authority}${one(':path') ?? '/'}`;
  return { method: one(':method') ?? 'GET', url, header: (name) => one(name.toLowerCase()), bodyText: undefined };
}

/**
 * The session a rule's answer comes from, for the app's `session`: made with the first answer and
 * closed with the app's session. `answer` is queued for the next stream opened on it.
 */
export function answeringSession(
  session: Session,
  answer: Http2Answer,
): { session: Session; opened(stream: ClientStream): void } | undefined {
  const http2 = builtin<NodeHttp2>('node:http2');
  const stream = builtin<{ Duplex: DuplexCtor }>('node:stream');
  const origin = sessionOrigin(session);
  if (!http2 || !stream || !origin) return undefined;
  let line = lines.get(session);
  if (!line || line.session.destroyed || line.session.closed) {
    const made: Line = { session: undefined as unknown as Session, queue: [] };
    const [near, far] = pipePair(stream.Duplex);
    const server = http2.createServer();
    server.on('stream', (s) => {
      s.on('error', () => {});
      const next = made.queue.shift();
      if (next) void serve(http2, s, next.answer, next.client);
      else s.close(http2.constants.NGHTTP2_REFUSED_STREAM);
    });
    server.emit('connection', far);
    made.session = http2.connect(`${origin.scheme}://${origin.authority}`, { createConnection: () => near });
    made.session.on('error', () => {});
    // As a session's close() lets its open streams end: the answers in flight still come.
    session.once('close', () => made.session.close());
    lines.set(session, (line = made));
  }
  const entry: Line['queue'][number] = { answer };
  line.queue.push(entry);
  return {
    session: line.session,
    opened(client) {
      entry.client = client;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function serve(http2: NodeHttp2, s: ServerStream, answer: Http2Answer, client: ClientStream | undefined) {
  if (answer.delayMs) await sleep(answer.delayMs);
  if (s.closed || s.destroyed) return; // the app gave up during the delay
  if (answer.error) {
    client?.destroy(answer.error);
    return;
  }
  const response = answer.response!;
  const headers: Headers = { ':status': response.status };
  for (const [name, value] of response.headers) headers[name] = value;
  const trailers = answer.trailers && Object.keys(answer.trailers).length > 0 ? answer.trailers : undefined;
  if (trailers) s.once('wantTrailers', () => s.sendTrailers(trailers));
  const reader = response.body?.getReader();
  s.respond(headers, { endStream: !reader && !trailers, waitForTrailers: !!trailers });
  if (!reader) {
    if (trailers) s.end();
    return;
  }
  s.once('close', () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (s.closed || s.destroyed) return;
      if (!s.write(value)) await new Promise((resolve) => s.once('drain', resolve));
    }
    s.end();
  } catch {
    // a rule's cut body ending in a reset
    if (!s.closed) s.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
  }
}

/**
 * Two connected in-memory streams (Node 20 has no stream.duplexPair). Each write arrives in a task of
 * its own, as a socket's reads do: arriving at once, a stream's DATA would reach the app before its
 * 'response' event.
 */
function pipePair(Duplex: DuplexCtor): [object, object] {
  const ends: InstanceType<DuplexCtor>[] = [];
  const end = (other: () => InstanceType<DuplexCtor>) =>
    new Duplex({
      read() {},
      write(chunk: unknown, _encoding: unknown, done: () => void) {
        const to = other();
        nextTask(() => to.push(chunk));
        done();
      },
      final(done: () => void) {
        const to = other();
        nextTask(() => to.push(null));
        done();
      },
      destroy(error: Error | null, done: (e: Error | null) => void) {
        other().destroy();
        done(error);
      },
    });
  ends.push(
    end(() => ends[1]!),
    end(() => ends[0]!),
  );
  return [ends[0]!, ends[1]!];
}

/** Node's setImmediate (the agent's declarations build has no Node types: tsconfig.agent.json). */
const nextTask = (task: () => void) =>
  (globalThis as unknown as { setImmediate(t: () => void): void }).setImmediate(task);
