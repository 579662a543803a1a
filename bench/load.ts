// npm run bench:load: 200 agents send network traffic and 20 MCP clients call tools against one
// inspector (a child process) for a bounded time, loopback only. Reports calls answered and failed,
// tools/call p50/p95, the inspector's event-loop delay p99 and its RSS over time.
// Env: LOAD_SECONDS (60), LOAD_AGENTS (200), LOAD_CLIENTS (20), LOAD_BUDGET_MIB (128), LOAD_BODY_BYTES (4096),
// LOAD_RPS_PER_AGENT (5), LOAD_PROFILE (a folder: CPU profile of the inspector), LOAD_NODE_FLAGS (for the
// inspector's node), LOAD_HISTORY_RECORDS (the call history's size). An idle process beside the inspector
// measures the machine's own event-loop delay floor in the same run (other processes, the bench itself).
import { fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import WebSocket from 'ws';
import { networkProtocol } from '../plugins/network/protocol.js';

const seconds = Number(process.env.LOAD_SECONDS ?? 60);
const agentCount = Number(process.env.LOAD_AGENTS ?? 200);
const clientCount = Number(process.env.LOAD_CLIENTS ?? 20);
const bodyBytes = Number(process.env.LOAD_BODY_BYTES ?? 4096);
/** Requests each app makes per second (each is three link frames: started, response, completed). */
const rate = Number(process.env.LOAD_RPS_PER_AGENT ?? 5);

interface Sample {
  eldP99Ms: number;
  eldMaxMs: number;
  wholeP99Ms: number;
  wholeP999Ms: number;
  wholeMaxMs: number;
  rssMiB: number;
  heapMiB: number;
  budgetUsedMiB: number;
  dropped: number;
  sessions: number;
  /** CPU time the inspector used since the last sample (all its threads). */
  cpuMs: number;
  gc: { majorMs: number; majorMaxMs: number; majors: number; minorMs: number; minorMaxMs: number };
}

const child = fork(join(import.meta.dirname, 'load', 'inspector.ts'), [], {
  execArgv: [
    '--import',
    'tsx',
    ...(process.env.LOAD_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.LOAD_PROFILE] : []),
    ...(process.env.LOAD_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
  ],
  stdio: ['ignore', process.env.LOAD_NODE_FLAGS ? 'inherit' : 'ignore', 'inherit', 'ipc'],
});
const samples: (Sample & { t: number })[] = [];
const started = Date.now();
const ready = new Promise<{ urls: { debuggeeUrl: string; mcpUrl: string }; dataDir: string }>((resolve) => {
  child.on('message', (m: { type: string } & Record<string, unknown>) => {
    if (m.type === 'ready') resolve(m as never);
    if (m.type === 'sample') samples.push({ ...(m as unknown as Sample), t: (Date.now() - started) / 1000 });
  });
});
const { urls, dataDir } = await ready;
const idle = fork(join(import.meta.dirname, 'load', 'idle.ts'), [], {
  execArgv: ['--import', 'tsx'],
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
await new Promise((r) => idle.once('message', r));
const floor = new Promise<{ p99Ms: number; p999Ms: number; maxMs: number }>((resolve) =>
  idle.on('message', (m: { type: string }) => {
    if (m.type === 'floor') resolve(m as never);
  }),
);

// ─── agents: raw link frames, as an app's network plugin sends them ───────────
const body = 'x'.repeat(bodyBytes);
let sent = 0;
const agents = await Promise.all(
  Array.from(
    { length: agentCount },
    (_, i) =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(urls.debuggeeUrl);
        ws.once('error', reject);
        ws.once('open', () => {
          ws.send(
            JSON.stringify({
              type: 'hello',
              protocolVersion: 1,
              app: { id: `com.bench.load.${i}`, name: `Load ${i}` },
              device: { id: 'bench', name: 'Bench', platform: 'node' },
              plugins: [{ id: 'network', version: networkProtocol.version }],
            }),
          );
          ws.once('message', () => resolve(ws));
        });
        ws.on('message', (data) => {
          const frame = JSON.parse(data.toString()) as {
            type: string;
            id?: string;
            plugin?: string;
            params?: { revision?: number };
          };
          // Answer the mock-config push, as an agent does.
          if (frame.type === 'request' && frame.id)
            ws.send(
              JSON.stringify({
                type: 'reply',
                id: frame.id,
                ok: true,
                result: { revision: frame.params?.revision ?? 0 },
              }),
            );
        });
      }),
  ),
);
const deadline = Date.now() + seconds * 1000;
child.send({ type: 'measure' });
idle.send({ type: 'measure' });
let n = 0;
// Each app on its own timer, spread over the interval, as independent apps would be.
const timers = agents.map((ws, i) => {
  const tick = () => {
    const id = `t${n++}`;
    const now = Date.now();
    const notify = (method: string, params: unknown) =>
      ws.send(JSON.stringify({ type: 'notification', plugin: 'network', method, params }));
    notify('started', {
      id,
      initiator: 'fetch',
      method: 'GET',
      url: `http://api.test/items/${id}`,
      headers: [],
      startedAt: now,
    });
    notify('response', {
      id,
      status: 200,
      statusText: 'OK',
      headers: [{ name: 'content-type', value: 'text/plain' }],
      waitMs: 1,
    });
    notify('completed', {
      id,
      body: { encoding: 'text', data: body, size: bodyBytes, truncated: false },
      durationMs: 2,
    });
    sent++;
  };
  let timer: NodeJS.Timeout | undefined;
  const start = setTimeout(
    () => {
      timer = setInterval(tick, 1000 / rate);
    },
    (i * 1000) / rate / agents.length,
  );
  return () => {
    clearTimeout(start);
    clearInterval(timer);
  };
});

// ─── MCP clients: tools/call in a loop ────────────────────────────────────────
const durations: number[] = [];
let answered = 0;
let failed = 0;
const failures = new Map<string, number>();
const tools = [
  ['inspector_get_status', {}],
  ['inspector_list_sessions', {}],
  ['network_list_transactions', { limit: 50 }],
] as const;
async function client(i: number): Promise<void> {
  const mcp = new Client({ name: `bench-${i}`, version: '1' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(urls.mcpUrl)));
  for (let k = 0; Date.now() < deadline; k++) {
    const [name, base] = tools[k % tools.length]!;
    const args = name === 'network_list_transactions' ? { ...base, sessionId: undefined } : base;
    const t0 = performance.now();
    try {
      const result = await mcp.callTool({ name, arguments: args });
      durations.push(performance.now() - t0);
      // network_list_transactions with 200 apps and no sessionId says which to pick: an answer, not a failure.
      if (result.isError && name !== 'network_list_transactions') {
        failed++;
        const text = JSON.stringify(result.content).slice(0, 120);
        failures.set(text, (failures.get(text) ?? 0) + 1);
      } else answered++;
    } catch (e) {
      failed++;
      const text = (e as Error).message.slice(0, 120);
      failures.set(text, (failures.get(text) ?? 0) + 1);
    }
  }
  await mcp.close();
}
await Promise.all([
  ...Array.from({ length: clientCount }, (_, i) => client(i)),
  new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now()))),
]);
idle.send({ type: 'report' });
const idleDelay = await floor;
idle.disconnect();
for (const stop of timers) stop();
for (const ws of agents) ws.close();

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
};
const eld = samples.map((s) => s.eldP99Ms);
const last = samples.at(-1);
console.log(
  `load: ${agentCount} agents at ${rate} requests/s each (${sent} transactions of ${bodyBytes} B), ${clientCount} MCP clients, ${seconds} s`,
);
console.log(
  `tools/call: ${answered} answered, ${failed} failed; p50 ${pct(durations, 50).toFixed(1)} ms, p95 ${pct(durations, 95).toFixed(1)} ms`,
);
for (const [text, count] of failures) console.log(`  failed ×${count}: ${text}`);
console.log(
  `event-loop delay (inspector): p99 of 1 s windows — median ${pct(eld, 50).toFixed(1)} ms, worst ${Math.max(...eld).toFixed(1)} ms`,
);
if (last)
  console.log(
    `event-loop delay (inspector): whole run from the first app's traffic — p99 ${last.wholeP99Ms.toFixed(1)} ms, p99.9 ${last.wholeP999Ms.toFixed(1)} ms, max ${last.wholeMaxMs.toFixed(1)} ms`,
  );
const gcSum = samples.reduce(
  (a, s) => ({
    majorMs: a.majorMs + s.gc.majorMs,
    majors: a.majors + s.gc.majors,
    majorMaxMs: Math.max(a.majorMaxMs, s.gc.majorMaxMs),
    minorMs: a.minorMs + s.gc.minorMs,
    minorMaxMs: Math.max(a.minorMaxMs, s.gc.minorMaxMs),
  }),
  { majorMs: 0, majors: 0, majorMaxMs: 0, minorMs: 0, minorMaxMs: 0 },
);
console.log(
  `gc pauses (inspector): ${gcSum.majors} major, ${gcSum.majorMs.toFixed(0)} ms in all, longest ${gcSum.majorMaxMs.toFixed(1)} ms; minor ${gcSum.minorMs.toFixed(0)} ms in all, longest ${gcSum.minorMaxMs.toFixed(1)} ms`,
);
console.log(
  `event-loop delay (an idle process beside it, the machine's floor): p99 ${idleDelay.p99Ms.toFixed(1)} ms, p99.9 ${idleDelay.p999Ms.toFixed(1)} ms, max ${idleDelay.maxMs.toFixed(1)} ms`,
);
const cpuMs = samples.reduce((a, s) => a + s.cpuMs, 0);
console.log(
  `inspector CPU: ${(cpuMs / 1000).toFixed(1)} s in all, ${((cpuMs * 1000) / Math.max(1, answered + failed + sent * 3)).toFixed(0)} µs per call or frame (${answered + failed} calls, ${sent * 3} frames); load average ${loadavg()[0]!.toFixed(1)} at the end`,
);
console.log('   t(s)  rss(MiB)  heap(MiB)  budget used(MiB)  dropped  eld p99(ms)  gc(ms)  cpu(ms)');
const step = Math.max(1, Math.floor(samples.length / 12));
for (const s of samples.filter((_, i) => i % step === 0 || i === samples.length - 1)) {
  console.log(
    `${s.t.toFixed(0).padStart(7)}  ${s.rssMiB.toFixed(0).padStart(8)}  ${s.heapMiB.toFixed(0).padStart(9)}  ${s.budgetUsedMiB.toFixed(0).padStart(16)}  ${String(s.dropped).padStart(7)}  ${s.eldP99Ms.toFixed(1).padStart(11)}  ${(s.gc.majorMs + s.gc.minorMs).toFixed(0).padStart(6)}  ${s.cpuMs.toFixed(0).padStart(7)}`,
  );
}
const exited = new Promise((r) => child.once('exit', r));
child.disconnect();
await exited;
rmSync(dataDir, { recursive: true, force: true });
process.exit(failed > 0 ? 1 : 0);
