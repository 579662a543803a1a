// npm run bench [-- <filter>]: runs every scenario in bench/scenarios/ (or those whose file name
// contains the filter) and prints one table; figures are ratios against floors measured in the same run.
// Each scenario runs in a process of its own, so that none inherits another's heap, sockets or
// warmed-up code: a 2 MiB download took 4 ms alone and 30 ms after the scenarios before it.
import { fork } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BenchRow, formatTable, type Scenario } from './harness.js';

const dir = join(import.meta.dirname, 'scenarios');
const ONE = '--scenario-file';

if (process.argv[2] === ONE) await runOne(process.argv[3]!);
else await runAll(process.argv[2]);

async function runAll(filter: string | undefined): Promise<void> {
  const files = readdirSync(dir)
    .filter((f) => /\.ts$/.test(f) && !f.endsWith('.test.ts') && (!filter || f.includes(filter)))
    .sort();
  const rows: BenchRow[] = [];
  for (const file of files) {
    const child = fork(import.meta.filename, [ONE, file], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', (m: { rows: BenchRow[] }) => rows.push(...m.rows));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) {
      process.stderr.write(`  ${file} exited with ${code}\n`);
      process.exitCode = 1;
    }
  }
  console.log(formatTable(rows));
}

async function runOne(file: string): Promise<void> {
  // Each kind of warning once: the SDK clients give every fetch their transport's one AbortSignal,
  // and undici warns at each request past 1500 listeners on it until the GC frees the old requests.
  const warned = new Set<string>();
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    const kind = `${warning.name}: ${warning.message.replace(/\d+/g, 'N')}`;
    if (warned.has(kind)) return;
    warned.add(kind);
    process.stderr.write(`  (shown once) ${warning.name}: ${warning.message}\n`);
  });
  const scenario = (await import(pathToFileURL(join(dir, file)).href)).default as Scenario;
  process.stderr.write(`running ${scenario.name}…\n`);
  try {
    const rows = await scenario.run();
    await new Promise<void>((resolve) => process.send!({ rows }, () => resolve()));
  } catch (e) {
    process.stderr.write(`  ${scenario.name} failed: ${(e as Error).stack}\n`);
    process.exitCode = 1;
  }
  process.exit();
}
