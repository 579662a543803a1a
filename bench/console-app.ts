// The app side of `npm run bench -- console` (bundled by the scenario), in its own process as a real app is: console.log to
// its stdout (the bench points it at /dev/null), with or without the console agent connected to
// the inspector the bench runs. Reports, per block of 1000 calls (batch send included), the wall ms
// and the process's CPU ms (every thread: GC and the socket write too), over IPC.
import { connect } from '../agent/connection.js';
import { console as consolePlugin } from '../plugins/console/agent/index.js';

const CALLS = 1000;
const SAMPLES = 60;
const url = process.env.PORTHOLE_URL;
const sites = process.env.BENCH_SITES;
const plugin = url
  ? consolePlugin(sites === 'budget' ? { maxCallSitesPerSecond: 1000 } : sites === 'off' ? { callSite: false } : {})
  : undefined;
const agent =
  plugin && url ? connect({ url, app: { id: 'bench.console', name: 'Bench' }, plugins: [plugin] }) : undefined;

for (let i = 0; i < 400 && agent && agent.status.state !== 'connected'; i++)
  await new Promise((r) => setTimeout(r, 25));
/**
 * The usual place of a log: in a function. V8 locates a call site in time that grows with the size
 * of the calling function, and a bundle's module body (the app and every library's top level, the
 * agent's here) is the largest there is: BENCH_CALLER=module logs from there instead.
 */
function logRequests(n: number): void {
  for (let i = 0; i < n; i++) console.log('request %d done', i, { status: 200, path: '/items', ms: 12.5 });
}
const inModuleBody = process.env.BENCH_CALLER === 'module';
const wall: number[] = [];
const cpu: number[] = [];
for (let s = 0; s < SAMPLES + 5; s++) {
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  if (inModuleBody) {
    for (let i = 0; i < CALLS; i++) console.log('request %d done', i, { status: 200, path: '/items', ms: 12.5 });
  } else logRequests(CALLS);
  plugin?.flush();
  const ended = performance.now();
  const used = process.cpuUsage(cpuStart);
  if (s >= 5) {
    wall.push(ended - started);
    cpu.push((used.user + used.system) / 1000);
  }
  await new Promise((r) => setTimeout(r, 10));
}
if (process.send) process.send({ wall, cpu });
else {
  // run by hand (e.g. under a profiler): the medians on stderr
  const median = (a: number[]) =>
    a
      .slice()
      .sort((x, y) => x - y)
      [a.length >> 1]!.toFixed(2);
  process.stderr.write(`wall ${median(wall)} ms, CPU ${median(cpu)} ms per ${CALLS} calls\n`);
}
agent?.disconnect();
process.disconnect?.();
