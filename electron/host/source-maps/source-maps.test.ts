import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleHost } from '../../../plugins/console/host/host-api.js';
import consoleHost from '../../../plugins/console/host/index.js';
import type { Entry } from '../../../plugins/console/host/store.js';
import { consoleProtocol } from '../../../plugins/console/protocol.js';
import { RECORD_OVERHEAD_BYTES } from '../../../shared/records.js';
import { cleanupAfterEach } from '../test-cleanup.js';
import { helloFrame, RawPeer, startTestCore, waitFor } from '../testing.js';
import { FunctionScanner } from './function-names.js';
import { PARSED_MAP_BYTES_PER_CHAR } from './index.js';

// Source maps through the real link, the real console plugin and real HTTP servers: what the
// inspector fetches for a frame is decided by how the app connected, never by what the frame names.

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SOURCE = join(ROOT, 'plugins/console/agent/fixtures/mapped-app.ts');
const OUT = join(ROOT, 'out/source-maps-core/app.mjs');
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
const PAIRING = 'kq7Vx2mP9tLr4Wz8Nc3Hb6Yd';

let script: string;
let map: string;
/** Line and column (from 1) of `console.log("order ready"` in the minified bundle. */
let at: { line: number; column: number };
const lineOf = (marker: string) =>
  readFileSync(SOURCE, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(marker)) + 1;

beforeAll(async () => {
  await build({
    entryPoints: [SOURCE],
    outfile: OUT,
    bundle: true,
    format: 'esm',
    platform: 'node',
    sourcemap: 'linked',
    minify: true,
    logLevel: 'silent',
  });
  script = readFileSync(OUT, 'utf8');
  map = readFileSync(`${OUT}.map`, 'utf8');
  const line = script.split('\n').findIndex((l) => l.includes('order ready')) + 1;
  at = { line, column: script.split('\n')[line - 1]!.indexOf('console.log("order ready"') + 1 };
});

/** An HTTP server on its own loopback port that counts every request it gets. */
async function countingServer(serve: (path: string) => { type: string; body: string } | undefined) {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.push(path);
    const answer = serve(path);
    if (answer) res.writeHead(200, { 'content-type': answer.type }).end(answer.body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { hits, origin, close: () => new Promise((r) => server.close(r)) };
}

/** The app's own dev server: the bundle and its map. */
const appServer = () =>
  countingServer((path) =>
    path === '/assets/app.mjs'
      ? { type: 'text/javascript', body: script }
      : path === '/assets/app.mjs.map'
        ? { type: 'application/json', body: map }
        : undefined,
  );

/** An uncaught exception whose stack names these scripts, at the bundle's place, sent as the console agent sends it. */
function exception(...files: string[]) {
  const stack = ['Error: order failed', ...files.map((f, i) => `    at f${i} (${f}:${at.line}:${at.column})`)].join(
    '\n',
  );
  return {
    type: 'notification' as const,
    plugin: 'console',
    method: 'batch',
    params: { dropped: 0, messages: [{ kind: 'exception', time: Date.now(), args: [], stack }] },
  };
}

/** Connects a raw app, sends the exception, and answers its stack once the maps settled. */
async function stackOf(
  t: Awaited<ReturnType<typeof startTestCore>>,
  connect: { url: string; headers?: Record<string, string>; hello?: Record<string, unknown> },
  files: string[],
): Promise<Entry['stack']> {
  const peer = await RawPeer.open(connect.url, connect.headers);
  peer.send(helloFrame({ plugins: [{ id: 'console', version: consoleProtocol.version }], ...connect.hello }));
  const welcome = await peer.next((f) => f.type === 'welcome');
  peer.send(exception(...files));
  const host = t.core.plugins.instance(welcome.sessionId as string, 'console') as unknown as ConsoleHost;
  const entry = await waitFor(() => host.store.all().find((e) => e.kind === 'exception'), 'the exception');
  await host.settle([entry], 5000);
  peer.close();
  return entry.stack;
}

const mappedLine = lineOf('marker: call site');

describe('source maps: what the inspector fetches for whom', () => {
  const defer = cleanupAfterEach();
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'porthole-maps-'));
    mkdirSync(join(folder, 'assets'));
    copyFileSync(`${OUT}.map`, join(folder, 'app.mjs.map'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("fetches a browser page's scripts and maps from its own origin only; a frame naming another loopback port gets nothing fetched", async () => {
    const t = await startTestCore({ plugins: [consoleHost] });
    defer(() => t.stop());
    const app = await appServer();
    const victim = await countingServer(() => ({ type: 'text/plain', body: 'secret admin page' }));
    defer(app.close);
    defer(victim.close);
    const stack = await stackOf(
      t,
      {
        url: t.urls.debuggeeUrl,
        headers: { origin: app.origin },
        // What the page claims does not widen what is fetched: the browser's Origin decides.
        hello: {
          device: {
            id: 'tab',
            name: 'Chromium',
            platform: 'browser',
            page: { url: `${victim.origin}/` },
            devServer: victim.origin,
          },
        },
      },
      [`${victim.origin}/admin/delete-everything.js`, `${app.origin}/assets/app.mjs?v=2`, `${victim.origin}/x.js`],
    );
    expect(victim.hits).toEqual([]);
    expect(app.hits.sort()).toEqual(['/assets/app.mjs', '/assets/app.mjs.map']);
    expect(stack?.[0]?.mapped).toBeUndefined();
    expect(stack?.[1]?.mapped).toMatchObject({ line: mappedLine });
    expect(stack?.[1]?.mapped?.file).toMatch(/\/plugins\/console\/agent\/fixtures\/mapped-app\.ts$/);
    // The map is held under the memory budget, about six times its text, with the script's functions (frame names).
    const held = t.core.budget.stats().stores['source-maps'];
    expect(held?.records).toBe(1);
    const scanner = new FunctionScanner();
    defer(() => scanner.close());
    const functions = (await scanner.parse(script))!.bytes;
    expect(functions).toBeGreaterThan(0);
    expect(held?.bytes).toBe(map.length * PARSED_MAP_BYTES_PER_CHAR + functions + RECORD_OVERHEAD_BYTES);
  });

  it('fetches nothing for an app on the LAN, even from its own page origin; a map in the --source-maps folder still maps it', async (ctx) => {
    if (!lanAddress) return ctx.skip();
    const t = await startTestCore({
      plugins: [consoleHost],
      lanPairingToken: PAIRING,
      sourceMaps: { folders: [folder] },
    });
    defer(() => t.stop());
    const app = await appServer();
    const loopbackVictim = await countingServer(() => ({ type: 'text/plain', body: 'secret' }));
    defer(app.close);
    defer(loopbackVictim.close);
    const stack = await stackOf(
      t,
      {
        url: `ws://${lanAddress}:${t.core.link.port}`,
        hello: {
          pairingToken: PAIRING,
          device: { id: 'phone', name: 'Phone', platform: 'react-native', devServer: app.origin },
        },
      },
      [`${loopbackVictim.origin}/admin.js`, `${app.origin}/assets/app.mjs`, `${app.origin}/index.bundle`],
    );
    expect(loopbackVictim.hits).toEqual([]);
    expect(app.hits).toEqual([]);
    expect(stack?.[0]?.mapped).toBeUndefined();
    // <folder>/app.mjs.map, found by the script's name.
    expect(stack?.[1]?.mapped).toMatchObject({ line: mappedLine });
    expect(stack?.[2]?.mapped).toBeUndefined();
  });

  it('fetches for a local app (no Origin) only from the dev server it declared, not from any port a frame names', async () => {
    const t = await startTestCore({ plugins: [consoleHost] });
    defer(() => t.stop());
    const app = await appServer();
    const victim = await countingServer(() => ({ type: 'text/plain', body: 'secret' }));
    defer(app.close);
    defer(victim.close);
    const stack = await stackOf(
      t,
      {
        url: t.urls.debuggeeUrl,
        hello: { device: { id: 'sim', name: 'Simulator', platform: 'react-native', devServer: app.origin } },
      },
      [`${app.origin}/assets/app.mjs`, `${victim.origin}/assets/app.mjs`],
    );
    expect(victim.hits).toEqual([]);
    expect(stack?.[0]?.mapped).toMatchObject({ line: mappedLine });
    expect(stack?.[1]?.mapped).toBeUndefined();
  });

  it("maps a React Native app's frames to the files Metro's sectioned map names by absolute path", async () => {
    const t = await startTestCore({ plugins: [consoleHost] });
    defer(() => t.stop());
    // As Metro's dev server writes them: the map beside the bundle's URL, sources as absolute paths.
    const raw = JSON.parse(map) as { sources: string[] };
    raw.sources = raw.sources.map((s) => resolve(dirname(OUT), s));
    const sectioned = JSON.stringify({ version: 3, sections: [{ offset: { line: 0, column: 0 }, map: raw }] });
    const metro = await countingServer((path) =>
      path === '/index.bundle'
        ? {
            type: 'application/javascript',
            body: `${script}\n//# sourceMappingURL=/index.map?platform=android&dev=true`,
          }
        : path === '/index.map'
          ? { type: 'application/json', body: sectioned }
          : undefined,
    );
    defer(metro.close);
    const stack = await stackOf(
      t,
      {
        url: t.urls.debuggeeUrl,
        hello: { device: { id: 'emu', name: 'Emulator', platform: 'react-native', devServer: metro.origin } },
      },
      [`${metro.origin}/index.bundle?platform=android&dev=true`],
    );
    expect(metro.hits).toEqual(['/index.bundle', '/index.map']);
    expect(stack?.[0]?.mapped).toMatchObject({ file: SOURCE, line: mappedLine });
  });

  it('lets the maps of a session go from the budget when it reconnects or is cleared', async () => {
    const t = await startTestCore({ plugins: [consoleHost] });
    defer(() => t.stop());
    const app = await appServer();
    defer(app.close);
    await stackOf(t, { url: t.urls.debuggeeUrl, headers: { origin: app.origin } }, [`${app.origin}/assets/app.mjs`]);
    expect(t.core.budget.stats().stores['source-maps']?.records).toBe(1);
    const [session] = t.core.sessions.list();
    await waitFor(() => !t.core.sessions.get(session!.id)?.info.active, 'the app to go');
    t.core.sessions.remove(session!.id);
    expect(t.core.budget.stats().stores['source-maps']?.records ?? 0).toBe(0);
  });
});
