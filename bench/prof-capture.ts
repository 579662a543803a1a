// Profiling helper (not a bench scenario): N captured requests of one kind, for `node --cpu-prof`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { connect } from '../agent/connection.js';
import { waitFor } from '../electron/host/testing.js';
import { network } from '../plugins/network/agent/index.js';
import { hub } from '../plugins/network/agent/observed.js';
import { coreProcess } from './scenarios/network-interception.js';

const kind = process.argv[2] ?? 'http';
const N = Number(process.argv[3] ?? 3000);
const capture = process.argv[4] !== 'plain';
const BODY = JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => ({ id: i, name: `item ${i}` })) });
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(BODY));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const keepAlive = new http.Agent({ keepAlive: true });
const axios = (await import('axios')).default;
const fns: Record<string, () => Promise<void>> = {
  http: () =>
    new Promise<void>((resolve, reject) => {
      http
        .get(`${base}/items`, { agent: keepAlive }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(void Buffer.concat(chunks)));
        })
        .on('error', reject);
    }),
  fetch: async () => {
    await (await fetch(`${base}/items`)).text();
  },
  axios: async () => {
    await axios.get(`${base}/items`, { httpAgent: keepAlive });
  },
};
// `ws`: the network-sockets bench's small echo (the `ws` package), one message and its echo per call.
const wss = new WebSocketServer({ server });
wss.on('connection', (ws) => ws.on('message', (data, binary) => ws.send(data, { binary })));
const SMALL = JSON.stringify({ type: 'chat', room: 'lobby', text: 'hello there', at: 1 });
let socket: WebSocket | undefined;
fns.ws = async () => {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    socket = new WebSocket(`ws://${base.slice('http://'.length)}/echo`);
    await new Promise((resolve, reject) => socket!.once('open', resolve).once('error', reject));
  }
  const ws = socket;
  await new Promise<void>((resolve) => {
    ws.once('message', () => resolve());
    ws.send(SMALL);
  });
};
/** A block's socket is closed at its end: the transaction completes (settle waits for it). */
const closeSocket = async () => {
  const ws = socket;
  socket = undefined;
  if (ws) await new Promise((resolve) => ws.once('close', resolve).close());
};
const fn = fns[kind]!;
const core = await coreProcess('niced');
// CALL_SITE=off: the app's network({ callSite: false }).
const plugin = network({ maxBodyBytes: 4 << 20, callSite: process.env.CALL_SITE !== 'off' });
const agent = connect({ url: core.url, app: { id: 'bench', name: 'Bench' }, plugins: [plugin] });
await waitFor(() => agent.status.sessionId, 'agent');
const sinks = [...hub().sinks];
if (process.argv[4] === 'ab') {
  // Alternating blocks with capture off and on: the app's CPU per call for each, medians of 12 rounds.
  const cpuOf = async (on: boolean) => {
    hub().sinks.clear();
    if (on) for (const s of sinks) hub().sinks.add(s);
    await core.call('settle');
    const c = process.cpuUsage();
    for (let i = 0; i < N; i++) await fn();
    await closeSocket();
    await new Promise((r) => setTimeout(r, 15));
    const u = process.cpuUsage(c);
    return (u.user + u.system) / N;
  };
  for (let i = 0; i < 300; i++) await fn();
  await closeSocket();
  const plain: number[] = [];
  const captured: number[] = [];
  for (let r = 0; r < 12; r++) {
    if (r % 2) captured.push(await cpuOf(true));
    plain.push(await cpuOf(false));
    if (!(r % 2)) captured.push(await cpuOf(true));
  }
  const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1]!;
  console.log(
    kind,
    'plain',
    med(plain).toFixed(1),
    'captured',
    med(captured).toFixed(1),
    'µs CPU/call, +',
    (med(captured) - med(plain)).toFixed(1),
  );
  await core.stop();
  process.exit(0);
}
if (!capture) hub().sinks.clear();
for (let i = 0; i < 500; i++) await fn();
await closeSocket();
await core.call('settle');
const session = process.env.PROF ? new (await import('node:inspector')).Session() : undefined;
const post = (m: string, params?: object) =>
  new Promise<{ profile?: unknown }>((res, rej) =>
    session!.post(m, params, (e, r) => (e ? rej(e) : res(r as { profile?: unknown }))),
  );
if (session) {
  session.connect();
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
}
const t0 = performance.now();
const c0 = process.cpuUsage();
for (let i = 0; i < N; i++) await fn();
await closeSocket();
await new Promise((r) => setTimeout(r, 15));
const cpu = process.cpuUsage(c0);
if (session) {
  const profile = (await post('Profiler.stop')).profile as Profile;
  (await import('node:fs')).writeFileSync(process.env.PROF!, JSON.stringify(profile));
  printByFile(profile, N);
}
console.log(
  kind,
  capture ? 'captured' : 'plain',
  ((performance.now() - t0) / N).toFixed(4),
  'ms/call',
  ((cpu.user + cpu.system) / N).toFixed(1),
  'µs CPU/call',
);
await core.call('settle');
plugin.dispose();
agent.disconnect();
await core.stop();
keepAlive.destroy();
socket?.terminate();
wss.close();
server.close();

interface Profile {
  nodes: { id: number; callFrame: { url: string; functionName: string } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per call by file (a native or V8 entry by its name), the largest first: where a call's µs go. */
function printByFile(profile: Profile, calls: number): void {
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const root = process.cwd();
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const { url, functionName } = frames.get(id)!;
    const file = url
      ? url.replace(/^file:\/\//, '').replace(`${root}/`, '')
      : functionName.startsWith('(')
        ? functionName
        : `(${functionName || 'native'})`;
    self.set(file, (self.get(file) ?? 0) + profile.timeDeltas[i]!);
  });
  const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, 30);
  for (const [file, us] of rows) console.log(`${(us / calls).toFixed(2).padStart(8)} µs  ${file}`);
}
