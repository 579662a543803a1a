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

// Says "connected" only once the app is, and again whenever its state changes.
const nodeApp = await startNodeApp(inspectorUrl, {
  onStatus: (state, error) => console.log(`Node service: ${state}${error ? ` (${error})` : ''}`),
});
const web = await createServer({
  root: join(import.meta.dirname, 'web'),
  configFile: false,
  logLevel: 'warn',
  // A file that is not there is a 404 (the "broken endpoint"), not the page served in its place.
  appType: 'mpa',
  server: { host: '127.0.0.1', port: 5173 },
  define: { 'import.meta.env.VITE_PORTHOLE_URL': JSON.stringify(inspectorUrl) },
});
await web.listen();
const pageUrl = web.resolvedUrls?.local[0] ?? 'http://127.0.0.1:5173/';
console.log(
  `Demo running against ${inspectorUrl}: the Node service connects by itself (its state is printed above as it changes);`,
);
console.log(`the browser shop connects once you open it (its header says "connected to Porthole"): ${pageUrl}`);
console.log('Press Ctrl+C to stop.');

const stop = async () => {
  nodeApp.stop();
  await web.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
