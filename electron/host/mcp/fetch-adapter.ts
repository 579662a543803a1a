import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpHttpHandler } from '@modelcontextprotocol/server';

/**
 * Serves one Node request with the SDK's web-standard handler, its body already read and parsed
 * (the endpoint did, under its own cap). Leaner than `toNodeHandler`: the Request carries no body
 * (the handler takes the parsed one), and a JSON answer is written in one piece, not chunk by
 * chunk from a stream; an SSE answer is streamed as it comes. A client that goes away aborts it.
 */
export async function serveWithHandler(
  handler: McpHttpHandler,
  req: IncomingMessage,
  res: ServerResponse,
  parsedBody: unknown,
): Promise<void> {
  const abort = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    headers.push([name, Array.isArray(value) ? value.join(', ') : value]);
  }
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method: req.method,
    headers,
    signal: abort.signal,
  });
  const response = await handler.fetch(request, { parsedBody });
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    out[name] = value;
  });
  if (!response.body) {
    res.writeHead(response.status, out).end();
    return;
  }
  if (!(out['content-type'] ?? '').startsWith('text/event-stream')) {
    const text = await response.text();
    res.writeHead(response.status, out).end(text);
    return;
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
}
