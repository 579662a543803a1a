import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCore, waitFor } from '../../../electron/host/testing.js';
import type { ConsoleHost } from './host-api.js';
import consoleHost from './index.js';
import type { Entry } from './store.js';

// A bundled Node app whose frames point into the bundle: the host maps them (the core's source maps,
// ctx.sourceMaps) to the TypeScript lines from the .map on disk (Node without --enable-source-maps),
// or Node maps them itself (with). What may be fetched for whom: electron/host/source-maps/.

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SOURCE = join(ROOT, 'plugins/console/agent/fixtures/mapped-app.ts');
const OUT = join(ROOT, 'out/console-maps/app.mjs');
const lineOf = (marker: string) =>
  readFileSync(SOURCE, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(marker)) + 1;

let core: Awaited<ReturnType<typeof startTestCore>>;
beforeAll(async () => {
  await build({
    entryPoints: [SOURCE],
    outfile: OUT,
    bundle: true,
    format: 'esm',
    platform: 'node',
    sourcemap: 'linked',
    minify: true, // the bundle's lines are not the source's
    logLevel: 'silent',
  });
  core = await startTestCore({ plugins: [consoleHost] });
});
afterAll(() => core.stop());

function run(args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...args, OUT], {
      env: { ...process.env, PORTHOLE_URL: core.urls.debuggeeUrl, NODE_OPTIONS: '' },
      stdio: 'ignore',
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

async function entriesOf(args: string[]) {
  const before = new Set(core.core.sessions.list().map((s) => s.id));
  expect(await run(args)).toBe(1);
  const session = await waitFor(
    () => core.core.sessions.list().find((s) => !before.has(s.id) && s.app.id === 'com.test.console-maps'),
    'the session',
  );
  const host = core.core.plugins.instance(session.id, 'console') as unknown as ConsoleHost;
  const find = (kind: string) => waitFor(() => host.store.all().find((e) => e.kind === kind), kind, 10_000);
  const [log, crash] = [await find('log'), await find('exception')];
  await host.settle([log, crash]);
  return { log, crash };
}

const place = (frame: Entry['callSite']) => frame && `${frame.file.split('/').pop()}:${frame.line}`;

describe('source-mapped stacks of a Node app', () => {
  it('maps call sites and uncaught errors from the map on disk, keeping the raw frames', async () => {
    const { log, crash } = await entriesOf([]);
    expect(log.callSite?.file).toBe(pathToFileURL(OUT).href);
    expect(place(log.callSite?.mapped)).toBe(`mapped-app.ts:${lineOf('marker: call site')}`);
    expect(log.callSite?.mapped?.file).toBe(SOURCE);
    const top = crash.stack?.[0];
    expect(top?.file).toBe(pathToFileURL(OUT).href);
    expect(top?.line).not.toBe(lineOf('marker: throw'));
    expect(place(top?.mapped)).toBe(`mapped-app.ts:${lineOf('marker: throw')}`);
  });

  it('keeps the places Node already mapped with --enable-source-maps', async () => {
    const { log, crash } = await entriesOf(['--enable-source-maps']);
    expect(place(log.callSite)).toBe(`mapped-app.ts:${lineOf('marker: call site')}`);
    expect(place(crash.stack?.[0])).toBe(`mapped-app.ts:${lineOf('marker: throw')}`);
  });
});
