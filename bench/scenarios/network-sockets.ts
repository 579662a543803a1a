import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import WebSocket, { WebSocketServer } from 'ws';
import { connect } from '../../agent/connection.js';
import { waitFor } from '../../electron/host/testing.js';
import { network } from '../../plugins/network/agent/index.js';
import { hub } from '../../plugins/network/agent/observed.js';
import { type BenchRow, defineScenario, latencyRow, type Stats, stats } from '../harness.js';
import { coreProcess } from './network-interception.js';

// Sockets and streams with and without Porthole (issue 35): a WebSocket echo of 10,000 small
// messages and of 100 × 1 MiB (the `ws` package, which Socket.IO's Node client uses too), and an
// event stream of 10,000 events read with fetch. Blocks with capture on and off alternate (ABBA)
// on a fresh connection each, so drift hits both; each ratio is the median of the rounds' ratios.
// Delivery latency: each server push (a WebSocket message, an event) carries the server's send
// time, and the app's receipt is measured against it (the same process, the same clock).

const ROUNDS = 10;
const SMALL = 1000; // per block: 10,000 captured in all
const BIG = 10; // 1 MiB messages per block: 100 captured in all
const EVENTS = 1000; // per block: 10,000 captured in all
const MIB = 1024 * 1024;

type Kind = 'plain' | 'captured';

export default defineScenario('network: WebSocket and event-stream capture overhead', async () => {
  const server = http.createServer((req, res) => {
    if (req.url !== '/events') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let n = 0;
    const burst = () => {
      // 50 events a tick, each with its send time, until the block's count.
      for (let i = 0; i < 50 && n < EVENTS; i++, n++)
        res.write(`id: ${n}\ndata: {"n":${n},"sentAt":${performance.now()},"text":"price update"}\n\n`);
      if (n < EVENTS) setImmediate(burst);
      else res.end();
    };
    burst();
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws, req) => {
    if (req.url !== '/push') return void ws.on('message', (data, binary) => ws.send(data, { binary }));
    // Server pushes (a price feed): 50 messages a tick, each with its send time, then a close.
    let n = 0;
    const burst = () => {
      for (let i = 0; i < 50 && n < EVENTS; i++, n++)
        ws.send(`{"n":${n},"sentAt":${performance.now()},"text":"price update"}`);
      if (n < EVENTS) setImmediate(burst);
      else ws.close(1000);
    };
    burst();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `127.0.0.1:${(server.address() as AddressInfo).port}`;

  const core = await coreProcess();
  const plugin = network({ maxBodyBytes: 4 * MIB });
  const agent = connect({ url: core.url, app: { id: 'bench', name: 'Bench' }, plugins: [plugin] });
  try {
    await waitFor(() => agent.status.sessionId, 'the bench agent');
    const settle = () => core.call('settle');
    const sinks = [...hub().sinks];
    const enter = async (kind: Kind) => {
      await settle();
      if (kind === 'plain') hub().sinks.clear();
      else for (const s of sinks) hub().sinks.add(s);
    };

    /** A socket open for one block; `echo` sends one message and waits for its echo. */
    const socket = async () => {
      const ws = new WebSocket(`ws://${base}/echo`);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const echo = (data: string | Buffer) =>
        new Promise<void>((resolve) => {
          ws.once('message', () => resolve());
          ws.send(data);
        });
      return { echo, close: () => new Promise((resolve) => ws.once('close', resolve).close()) };
    };
    const small = JSON.stringify({ type: 'chat', room: 'lobby', text: 'hello there', at: 1 });
    const big = Buffer.alloc(MIB, 7);
    const echoes = (message: string | Buffer, count: number) => async () => {
      const ws = await socket();
      const times: number[] = [];
      for (let i = 0; i < count; i++) {
        const start = performance.now();
        await ws.echo(message);
        times.push(performance.now() - start);
      }
      await ws.close();
      return { times, delivery: [] as number[] };
    };
    const pushes = async () => {
      const delivery: number[] = [];
      const start = performance.now();
      const ws = new WebSocket(`ws://${base}/push`);
      ws.on('message', (data) => {
        const now = performance.now();
        delivery.push(now - (JSON.parse(String(data)) as { sentAt: number }).sentAt);
      });
      await new Promise((resolve, reject) => ws.once('close', resolve).once('error', reject));
      if (delivery.length !== EVENTS) throw new Error(`the socket gave ${delivery.length} messages, not ${EVENTS}`);
      return { times: [performance.now() - start], delivery };
    };
    const events = async () => {
      const times: number[] = [];
      const delivery: number[] = [];
      const start = performance.now();
      const res = await fetch(`http://${base}/events`);
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      let seen = 0;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const data = /data: (.*)/.exec(buffer.slice(0, end))?.[1];
          buffer = buffer.slice(end + 2);
          if (data) {
            const now = performance.now();
            delivery.push(now - (JSON.parse(data) as { sentAt: number }).sentAt);
            seen++;
          }
          end = buffer.indexOf('\n\n');
        }
      }
      if (seen !== EVENTS) throw new Error(`the stream gave ${seen} events, not ${EVENTS}`);
      times.push(performance.now() - start);
      return { times, delivery };
    };

    const alternate = async (block: () => Promise<{ times: number[]; delivery: number[] }>) => {
      const all = { plain: [] as number[], captured: [] as number[] };
      const delivery = { plain: [] as number[], captured: [] as number[] };
      const totals = { plain: [] as number[], captured: [] as number[] };
      const cpu = { plain: [] as number[], captured: [] as number[] };
      const ratios: number[] = [];
      const cpuRatios: number[] = [];
      await enter('captured');
      await block(); // warm-up
      for (let r = 0; r < ROUNDS; r++) {
        const order: Kind[] = r % 2 === 0 ? ['plain', 'captured'] : ['captured', 'plain'];
        const total = { plain: 0, captured: 0 };
        const used = { plain: 0, captured: 0 };
        for (const kind of order) {
          await enter(kind);
          const before = process.cpuUsage();
          const { times, delivery: d } = await block();
          const after = process.cpuUsage(before);
          used[kind] = (after.user + after.system) / 1000;
          cpu[kind].push(used[kind]);
          all[kind].push(...times);
          delivery[kind].push(...d);
          total[kind] = times.reduce((a, b) => a + b, 0);
          totals[kind].push(total[kind]);
        }
        ratios.push(total.captured / total.plain);
        cpuRatios.push(used.captured / used.plain);
      }
      await enter('captured');
      return {
        plain: stats(all.plain),
        captured: stats(all.captured),
        ratio: stats(ratios).median,
        /** The app's process CPU (the app, the agent, its link) per block, ms. */
        cpu: { plain: stats(cpu.plain), captured: stats(cpu.captured), ratio: stats(cpuRatios).median },
        delivery: { plain: stats(delivery.plain), captured: stats(delivery.captured) },
      };
    };

    const smallRun = await alternate(echoes(small, SMALL));
    const bigRun = await alternate(echoes(big, BIG));
    const pushRun = await alternate(pushes);
    const sseRun = await alternate(events);
    const kept = (await settle()) as { count: number; dropped: number };
    const load = `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`;
    const row = (name: string, r: typeof smallRun, floor: string, note: string): BenchRow => {
      const out = latencyRow(name, r.captured, floor, r.plain, `${note}; ${load}`);
      out.ratio = r.ratio;
      return out;
    };
    const cpuRow = (name: string, r: typeof smallRun): BenchRow => {
      const out = latencyRow(
        `${name}: app CPU per block`,
        r.cpu.captured,
        'without Porthole',
        r.cpu.plain,
        `user + system ms of the app's process (app, agent and link; the inspector runs apart); ratio: median over ${ROUNDS} rounds; ${load}`,
      );
      out.ratio = r.cpu.ratio;
      return out;
    };
    const deliveryRow = (what: string, d: { plain: Stats; captured: Stats }) =>
      latencyRow(
        `${what} delivery: server send → app receipt`,
        d.captured,
        'without Porthole',
        d.plain,
        `ms from the server's write to the app's parse, ${d.captured.samples} messages; ${load}`,
      );
    return [
      row(
        `WebSocket echo ×${SMALL * ROUNDS} small (ws), per round trip`,
        smallRun,
        'without Porthole',
        `blocks of ${SMALL} on a fresh socket; ratio: median over ${ROUNDS} rounds of the blocks' totals; host kept ${kept.count} transactions`,
      ),
      cpuRow(`WebSocket echo ×${SMALL} small`, smallRun),
      row(
        `WebSocket echo ×${BIG * ROUNDS} × 1 MiB (ws), per round trip`,
        bigRun,
        'without Porthole',
        `blocks of ${BIG}; each message kept up to the agent's maxMessageBytes`,
      ),
      cpuRow(`WebSocket echo ×${BIG} × 1 MiB`, bigRun),
      row(
        `event stream of ${EVENTS * ROUNDS} events (fetch), per ${EVENTS}-event stream`,
        sseRun,
        'without Porthole',
        `${ROUNDS} streams each way, read and parsed by the app`,
      ),
      row(
        `WebSocket server push of ${EVENTS * ROUNDS} messages (ws), per ${EVENTS}-message socket`,
        pushRun,
        'without Porthole',
        `${ROUNDS} sockets each way, 50 messages a tick, parsed by the app`,
      ),
      deliveryRow('WebSocket message', pushRun.delivery),
      deliveryRow('event', sseRun.delivery),
    ];
  } finally {
    plugin.dispose();
    agent.disconnect();
    await core.stop();
    for (const c of wss.clients) c.terminate();
    wss.close();
    server.closeAllConnections();
    server.close();
  }
});
