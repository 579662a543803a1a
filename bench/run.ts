// npm run bench [-- <filter>]: runs every scenario in bench/scenarios/ (or those whose file name
// contains the filter) and prints one table; figures are ratios against floors measured in the same run.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BenchRow, formatTable, type Scenario } from './harness.js';

const filter = process.argv[2];
const dir = join(import.meta.dirname, 'scenarios');
const files = readdirSync(dir)
  .filter((f) => /\.ts$/.test(f) && !f.endsWith('.test.ts') && (!filter || f.includes(filter)))
  .sort();

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

const rows: BenchRow[] = [];
for (const file of files) {
  const scenario = (await import(pathToFileURL(join(dir, file)).href)).default as Scenario;
  process.stderr.write(`running ${scenario.name}…\n`);
  try {
    rows.push(...(await scenario.run()));
  } catch (e) {
    process.stderr.write(`  ${scenario.name} failed: ${(e as Error).stack}\n`);
    process.exitCode = 1;
  }
}
console.log(formatTable(rows));
process.exit();
