// npm run demo: starts a Node debuggee and serves a browser debuggee page, both connected to the
// running inspector (found through its instance.json, else ws://127.0.0.1:7360).
import { join } from 'node:path';
import { createServer } from 'vite';
import { resolveDataDir } from '../../electron/host/data-dir.js';
import { readInstance } from '../../electron/host/instance-file.js';
import { startNodeApp } from './node-app.js';

const flagIndex = process.argv.indexOf('--data-dir');
const dataDir = resolveDataDir(flagIndex > 0 ? process.argv[flagIndex + 1] : undefined);
const instance = readInstance(dataDir);
const inspectorUrl = process.env.PORTHOLE_URL ?? instance?.debuggeeUrl ?? 'ws://127.0.0.1:7360';
if (!instance)
  console.log(
    `No running inspector found in ${dataDir}; the demo will connect to ${inspectorUrl} when it starts (npm start).`,
  );

const nodeApp = await startNodeApp(inspectorUrl);
const web = await createServer({
  root: join(import.meta.dirname, 'web'),
  configFile: false,
  logLevel: 'warn',
  server: { host: '127.0.0.1', port: 5173 },
  define: { 'import.meta.env.VITE_PORTHOLE_URL': JSON.stringify(inspectorUrl) },
});
await web.listen();
const pageUrl = web.resolvedUrls?.local[0] ?? 'http://127.0.0.1:5173/';
console.log(`Demo running: a Node service and a browser page, both connected to ${inspectorUrl}`);
console.log(`  Open the page: ${pageUrl}`);
console.log('Press Ctrl+C to stop.');

const stop = async () => {
  nodeApp.stop();
  await web.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
