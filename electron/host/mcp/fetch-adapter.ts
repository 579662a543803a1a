import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpHttpHandler } from '@modelcontextprotocol/server';

/**
 * A Request that builds the real one only if something other than its method, URL, signal and
 * headers' get/has is asked for (as @hono/node-server does): undici's constructor was ~50 µs of
 * each 2026-07-28 call (cpu-prof), and the SDK's modern entry reads only those of a request whose
 * body it is given parsed.
 */
function lazyRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
  const method = req.method ?? 'GET';
  let real: Request | undefined;
  const materialize = (): Request => {
    if (real) return real;
    const headers: [string, string][] = [];
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || name.startsWith(':')) continue;
      headers.push([name, Array.isArray(value) ? value.join(', ') : value]);
    }
    real = new Request(url, { method, headers, signal });
    return real;
  };
  const header = (name: string): string | null => {
    const value = req.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  };
  const headers = new Proxy({} as Headers, {
    get: (_, prop) =>
      prop === 'get'
        ? header
        : prop === 'has'
          ? (name: string) => header(name) !== null
          : through(materialize().headers, prop),
  });
  return new Proxy(Object.create(Request.prototype) as Request, {
    get: (_, prop) => {
      if (prop === 'method') return method;
      if (prop === 'url') return url;
      if (prop === 'signal') return signal;
      if (prop === 'headers') return real ? real.headers : headers;
      return through(materialize(), prop);
    },
  });
}

/** A property of the real object, its methods bound to it. */
function through(object: object, prop: string | symbol): unknown {
  const value: unknown = Reflect.get(object, prop, object);
  return typeof value === 'function' ? value.bind(object) : value;
}

/**
 * Serves one Node request with the SDK's web-standard handler, its body already read and parsed
 * (the endpoint did, under its own cap). Leaner than `toNodeHandler`: the Request carries no body
 * (the handler takes the parsed one) and is built lazily; a JSON answer is written in one piece,
 * not chunk by chunk from a stream; an SSE answer is streamed as it comes. A client that goes away
 * aborts it. Resolves with the status answered.
 */
export async function serveWithHandler(
  handler: McpHttpHandler,
  req: IncomingMessage,
  res: ServerResponse,
  parsedBody: unknown,
): Promise<number> {
  const abort = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const request = lazyRequest(req, abort.signal);
  const response = await handler.fetch(request, { parsedBody });
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    out[name] = value;
  });
  if (!response.body) {
    res.writeHead(response.status, out).end();
    return response.status;
  }
  if (!(out['content-type'] ?? '').startsWith('text/event-stream')) {
    const text = await response.text();
    res.writeHead(response.status, out).end(text);
    return response.status;
  }
  res.writeHead(response.status, out);
  res.flushHeaders();
  try {
    const reader = response.body.getReader();
    for (let read = await reader.read(); !read.done && !abort.signal.aborted; read = await reader.read()) {
      res.write(read.value);
    }
  } catch {
    // the stream ended with the exchange (client gone, handler closed)
  }
  res.end();
  return response.status;
}
