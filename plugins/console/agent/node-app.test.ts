import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCore, waitFor } from '../../../electron/host/testing.js';
import type { ConsoleHost } from '../host/index.js';
import consoleHost from '../host/index.js';
import type { Entry } from '../host/store.js';

// A real Node app in a child process, run with and without the agent: what it prints and how it
// ends must not change; what it logged must arrive, in order, with its values.

const APP = join(import.meta.dirname, 'fixtures', 'node-app.ts');
let core: Awaited<ReturnType<typeof startTestCore>>;

beforeAll(async () => {
  core = await startTestCore({ plugins: [consoleHost] });
});
afterAll(() => core.stop());

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(appCase: string, withAgent: boolean, extraArgs: string[] = []): Promise<Run> {
  const env: Record<string, string | undefined> = { ...process.env, APP_CASE: appCase, NODE_OPTIONS: '' };
  delete env.PORTHOLE_URL;
  if (withAgent) env.PORTHOLE_URL = core.urls.debuggeeUrl;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...extraArgs, APP], { env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      // console.timeEnd prints a duration, the one thing that differs from run to run
      const same = (text: string) => text.replace(/^t: [\d.]+m?s$/m, 't: <duration>');
      resolve({ code, stdout: same(stdout), stderr: same(stderr) });
    });
  });
}

function sessionEntries(before: Set<string>): Promise<Entry[]> {
  return waitFor(
    () => {
      const session = core.core.sessions.list().find((s) => !before.has(s.id) && s.app.id === 'com.test.console-node');
      if (!session) return undefined;
      const host = core.core.plugins.instance(session.id, 'console') as unknown as ConsoleHost | undefined;
      const entries = host?.store.all() ?? [];
      return entries.some((e) => e.text === 'last') && entries;
    },
    "the app's messages",
    15_000,
  );
}

async function withAndWithout(appCase: string, extraArgs: string[] = []) {
  const before = new Set(core.core.sessions.list().map((s) => s.id));
  const [plain, captured] = [await run(appCase, false, extraArgs), await run(appCase, true, extraArgs)];
  const entries = await sessionEntries(before);
  return { plain, captured, entries };
}

describe('a Node app', () => {
  it('prints the same and its console messages arrive in order, values intact', async () => {
    const { plain, captured, entries } = await withAndWithout('exit');
    expect(captured.code).toBe(0);
    expect(captured.stdout).toBe(plain.stdout);
    expect(captured.stderr).toBe(plain.stderr);
    expect(plain.stderr).toContain('Trace: trace here');

    const texts = entries.map((e) => [e.kind, e.text]);
    expect(texts.map(([kind]) => kind)).toEqual([
      'log',
      'info',
      'warn',
      'error',
      'debug',
      'trace',
      'assert',
      'table',
      'group',
      'log',
      'count',
      'count',
      'count',
      'timeEnd',
      'log',
    ]);
    const [log, info, warn, error, debug, trace, assert, , group, inside, count1, , count3, timeEnd] =
      entries as Entry[];
    expect(log!.text).toBe('hello world, 3 items {a: 1, nested: {b: [1, 2, 3]}}');
    expect(log!.callSite?.file).toContain('node-app.ts');
    expect(info!.args).toEqual([
      'info',
      { $: 'bigint', v: '1' },
      { $: 'symbol', v: 'Symbol(sym)' },
      { $: 'undefined' },
      null,
      { $: 'number', v: 'NaN' },
      { $: 'number', v: '-0' },
    ]);
    expect(warn!.args[1]).toEqual({ $: 'map', entries: [['k', { $: 'object', props: { v: 1 } }]], size: 1 });
    expect(warn!.args[2]).toEqual({ $: 'set', items: [1, 'two'], size: 2 });
    expect(warn!.level).toBe('warn');
    const err = error!.args[1] as { $: string; message: string; cause: { $: string; name: string; message: string } };
    expect(err).toMatchObject({
      $: 'error',
      name: 'Error',
      message: 'outer',
      cause: { $: 'error', name: 'TypeError', message: 'inner' },
    });
    expect(error!.level).toBe('error');
    expect(debug!.args[1]).toEqual({ $: 'typed', cls: 'Uint8Array', items: [1, 2, 3], length: 3 });
    expect(debug!.args[2]).toEqual({ $: 'object', props: { name: 'cyclic', self: { $: 'circular' } } });
    expect(debug!.level).toBe('debug');
    expect(trace!.stack?.[0]?.file).toContain('node-app.ts');
    expect(assert!.text).toBe('Assertion failed: assert failed');
    expect(group!.text).toBe('group A');
    expect(inside!.group).toBe(1);
    expect(count1!.text).toBe('default: 1');
    expect(count3!.text).toBe('x: 2');
    expect(timeEnd!.text).toMatch(/^t: \d+\.\d{3} ms$/);
  });

  for (const appCase of ['throw', 'reject', 'reject-value']) {
    it(`crashes as it would without the agent (${appCase}), and the error arrives first`, async () => {
      const { plain, captured, entries } = await withAndWithout(appCase);
      expect(plain.code).toBe(1);
      expect(captured.code).toBe(plain.code);
      expect(captured.stdout).toBe(plain.stdout);
      expect(captured.stderr).toBe(plain.stderr);
      const fatal = await waitFor(
        () => entries.find((e) => e.kind === 'exception' || e.kind === 'rejection'),
        'the crash',
      );
      expect(fatal.level).toBe('error');
      expect(fatal.fatal).toBe(true);
      if (appCase === 'throw') expect(fatal.text).toBe('Uncaught Error: uncaught boom');
      if (appCase === 'reject')
        expect(fatal).toMatchObject({ kind: 'rejection', text: 'Uncaught (in promise) Error: rejected boom' });
      if (appCase === 'reject-value') expect(fatal.kind).toBe('rejection');
    });
  }

  it("keeps the app's own unhandledRejection listener in charge, and still reports the rejection", async () => {
    const { plain, captured, entries } = await withAndWithout('reject-handled');
    expect(plain.code).toBe(0);
    expect(captured.code).toBe(0);
    expect(captured.stdout).toBe(plain.stdout);
    expect(captured.stderr).toBe(plain.stderr);
    expect(plain.stdout).toContain('app saw rejection: handled boom');
    await waitFor(() => entries.find((e) => e.kind === 'rejection' && !e.fatal), 'the rejection');
  });

  it('keeps an exit code the app set', async () => {
    const { plain, captured } = await withAndWithout('exit-code');
    expect(plain.code).toBe(3);
    expect(captured.code).toBe(3);
  });
});
