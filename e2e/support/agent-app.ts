// A Node app run as its own process (`node --import tsx e2e/support/agent-app.ts`): it serves a
// small JSON API on 127.0.0.1, connects the Porthole agent (example, network, console plugins) to
// PORTHOLE_URL, makes REQUESTS requests to its API (logging each), prints one JSON line
// `{ "requests": n, "api": url }` and stays connected until its stdin closes.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from '../../agent/index.js';
import { console as consolePlugin } from '../../plugins/console/agent/index.js';
import { example } from '../../plugins/example/agent/index.js';
import { network } from '../../plugins/network/agent/index.js';

const requests = Number(process.env.REQUESTS ?? 0);
const appId = process.env.APP_ID ?? 'com.e2e.agent-app';

// Answers like a real API: a JSON list of about 2 KB, an error now and then.
const api = createServer((req, res) => {
  const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n') ?? 0);
  if (n % 50 === 49) {
    res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `order ${n} failed` }));
    return;
  }
  const items = Array.from({ length: 12 }, (_, i) => ({ id: n * 100 + i, name: `item ${i} of order ${n}`, price: i }));
  res.writeHead(200, { 'content-type': 'application/json', 'x-request-n': String(n) });
  res.end(JSON.stringify({ order: n, items, note: 'n'.repeat(800) }));
});
await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;

const traffic = network();
await traffic.ready;
const agent = connect({
  url: process.env.PORTHOLE_URL,
  app: { id: appId, name: 'Agent app (e2e)', version: '1.0.0' },
  plugins: [example(), traffic, consolePlugin()],
});
if (agent.status.state !== 'connected')
  await new Promise<void>((resolve) => agent.onStatus((s) => s.state === 'connected' && resolve()));

for (let i = 0; i < requests; i++) {
  const kind = i % 3 === 0 ? 'orders' : i % 3 === 1 ? 'cart' : 'search';
  const res = await fetch(`${base}/api/${kind}?n=${i}`, {
    method: i % 5 === 0 ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json', authorization: 'Bearer app-secret' },
    body: i % 5 === 0 ? JSON.stringify({ order: i, lines: [1, 2, 3] }) : undefined,
  });
  const body = await res.text();
  // A console as busy as its traffic: a line per request, an error per failed one.
  if (res.ok) console.log(`${kind} ${i} → ${res.status}`, { bytes: body.length, kind });
  else console.error(new Error(`${kind} ${i} failed with ${res.status}: ${body}`));
}
process.stdout.write(`${JSON.stringify({ requests, api: base })}\n`);

process.stdin.resume();
process.stdin.once('end', () => {
  agent.disconnect();
  traffic.dispose();
  api.close();
  process.exit(0);
});
