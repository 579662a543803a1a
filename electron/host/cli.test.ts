import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { coreOptionsFromFlags, describeStartupError } from './launch.js';
import { waitFor } from './testing.js';

const BIN = resolve(import.meta.dirname, '../../bin/porthole.js');

function run(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: '1' },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, exit, output: () => out };
}

describe('porthole serve', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'porthole-cli-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`prints its URLs, writes instance.json, and removes it on ${signal}`, async () => {
      const dir = dataDir();
      const p = run(['serve', '--data-dir', dir, '--debuggee-port', '0', '--control-port', '0', '--no-open']);
      const file = join(dir, 'instance.json');
      await waitFor(() => existsSync(file) && p.output().includes('Press Ctrl+C'), 'the inspector to start', 15_000);
      const info = JSON.parse(readFileSync(file, 'utf8'));
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(info).toMatchObject({ pid: p.child.pid, version: expect.any(String) });
      expect(info.debuggeeUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
      expect(info.mcpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(p.output()).toContain(info.debuggeeUrl);
      expect(p.output()).toContain(info.mcpUrl);
      const health = await fetch(`${info.controlUrl}/healthz`);
      expect(await health.json()).toMatchObject({ ok: true });

      p.child.kill(signal);
      expect(await p.exit).toBe(0);
      expect(existsSync(file)).toBe(false);
    });
  }

  it('names the flag in a one-line error when a port is in use', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const p = run([
        'serve',
        '--data-dir',
        dataDir(),
        '--debuggee-port',
        String(port),
        '--control-port',
        '0',
        '--no-open',
      ]);
      expect(await p.exit).toBe(1);
      expect(p.output().trim()).toBe(
        `porthole: port ${port} is already in use; pass --debuggee-port <port> to use another (0 picks any free port)`,
      );
      const q = run([
        'serve',
        '--data-dir',
        dataDir(),
        '--debuggee-port',
        '0',
        '--control-port',
        String(port),
        '--no-open',
      ]);
      expect(await q.exit).toBe(1);
      expect(q.output()).toContain('pass --control-port <port>');
    } finally {
      blocker.close();
    }
  });

  it('refuses a malformed port and an unknown flag with a clear message', async () => {
    const p = run(['serve', '--debuggee-port', 'abc']);
    expect(await p.exit).toBe(2);
    expect(p.output()).toContain('--debuggee-port must be a port number');
    const q = run(['serve', '--frobnicate']);
    expect(await q.exit).toBe(2);
    expect(q.output()).toContain("Unknown option '--frobnicate'");
  });

  it('says in one line, without a stack, when the data dir cannot be used', async () => {
    const file = join(dataDir(), 'a-file');
    writeFileSync(file, 'not a folder');
    const p = run(['serve', '--data-dir', join(file, 'data'), '--debuggee-port', '0', '--control-port', '0']);
    expect(await p.exit).toBe(1);
    const lines = p.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^porthole: cannot use the data dir .*a file is in the way .*pass --data-dir <dir>/);
  });

  it('refuses a short mcp-token in one line and leaves the file as it is', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'mcp-token'), 'abc123\n');
    const p = run(['serve', '--data-dir', dir, '--debuggee-port', '0', '--control-port', '0']);
    expect(await p.exit).toBe(1);
    const lines = p.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `porthole: could not start: ${join(dir, 'mcp-token')} holds a token of 6 characters; tokens must have at least 32. Write a longer one there, or delete the file and a strong one is made at the next start`,
    );
    expect(readFileSync(join(dir, 'mcp-token'), 'utf8')).toBe('abc123\n');
  });

  it('refuses a weak LAN pairing token (8 characters were enough before) and an origin with a path', async () => {
    const p = run(['serve', '--lan', 'sesame12']);
    expect(await p.exit).toBe(2);
    expect(p.output().trim()).toMatch(
      /^porthole: --lan needs a pairing token of at least 24 random characters .* pass --lan without a value and the inspector makes one/,
    );
    for (const weak of ['abc', 'a'.repeat(30), 'kq7Vx2mP9tLr 4Wz8Nc3Hb6Yd']) {
      expect(() => coreOptionsFromFlags({ lan: weak })).toThrow(/at least 24 random characters/);
    }
    expect(coreOptionsFromFlags({ lan: 'kq7Vx2mP9tLr4Wz8Nc3Hb6Yd' }).lanPairingToken).toBe('kq7Vx2mP9tLr4Wz8Nc3Hb6Yd');
    expect(coreOptionsFromFlags({ lan: '' }).lanPairingToken).toBe(true);
    const q = run(['serve', '--allow-origin', 'http://myapp.test/']);
    expect(await q.exit).toBe(2);
    expect(q.output()).toContain('--allow-origin must be an origin such as http://myapp.test:*');
  });
});

describe('porthole ui and one-time window links', () => {
  // Two processes, one after the other: on a loaded machine that is more than the default 20 s.
  it('keeps the unused link in instance.json: the printed one works once, porthole ui prints the next', {
    timeout: 60_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'porthole-cli-'));
    const p = run(['serve', '--data-dir', dir, '--debuggee-port', '0', '--control-port', '0', '--no-open']);
    try {
      await waitFor(() => p.output().includes('Press Ctrl+C'), `the inspector to start (${p.output()})`, 15_000);
      const printed = /UI: +(\S+)/.exec(p.output())![1]!;
      expect(p.output()).toContain('the link works once; porthole ui opens the next one');
      const instance = () => JSON.parse(readFileSync(join(dir, 'instance.json'), 'utf8')) as { uiUrl: string };
      expect(instance().uiUrl).toBe(printed);
      const open = (url: string) => fetch(url, { redirect: 'manual' }).then((r) => r.headers.get('set-cookie'));
      expect(await open(printed)).toMatch(/^porthole_ui_\d+=/);
      expect(await open(printed)).toBeNull();
      await waitFor(() => instance().uiUrl !== printed, 'instance.json to hold the next link');
      const ui = run(['ui', '--data-dir', dir, '--no-open']);
      expect(await ui.exit).toBe(0);
      const next = ui.output().trim();
      expect(next).toBe(instance().uiUrl);
      expect(await open(next)).toMatch(/^porthole_ui_\d+=/);
    } finally {
      p.child.kill('SIGTERM');
      await p.exit;
      rmSync(dir, { recursive: true, force: true });
    }
    const none = run(['ui', '--data-dir', dir, '--no-open']);
    expect(await none.exit).toBe(3);
    expect(none.output()).toContain('no inspector is running');
    expect(coreOptionsFromFlags({ 'new-ui-token': true }).ui).toEqual({ newKey: true });
  });
});

describe('porthole serve --lan without a value', () => {
  it('makes a token of 256 bits, keeps it in <data-dir>/lan-token (0600), prints it, and reuses it next time', {
    timeout: 60_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'porthole-cli-'));
    try {
      const tokens: string[] = [];
      for (let i = 0; i < 2; i++) {
        const p = run([
          'serve',
          '--data-dir',
          dir,
          '--debuggee-port',
          '0',
          '--control-port',
          '0',
          '--no-open',
          '--lan',
        ]);
        await waitFor(() => p.output().includes('Press Ctrl+C'), `the inspector to start (${p.output()})`, 15_000);
        expect(p.output()).toContain('(LAN enabled)');
        const token = /LAN pairing token: (\S+)/.exec(p.output())?.[1];
        expect(token).toMatch(/^[\w-]{43}$/);
        tokens.push(token!);
        p.child.kill('SIGTERM');
        expect(await p.exit).toBe(0);
      }
      expect(tokens[1]).toBe(tokens[0]);
      expect(readFileSync(join(dir, 'lan-token'), 'utf8').trim()).toBe(tokens[0]);
      expect(statSync(join(dir, 'lan-token')).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('--memory-budget and --max-sessions', () => {
  it('reads sizes in MiB by default or with a unit, and refuses what is not a size of at least 16 MiB', () => {
    const budget = (v: string) => coreOptionsFromFlags({ 'memory-budget': v }).memoryBudgetBytes;
    expect(budget('512')).toBe(512 * 1024 ** 2);
    expect(budget('2GiB')).toBe(2 * 1024 ** 3);
    expect(budget('64 mib')).toBe(64 * 1024 ** 2);
    expect(coreOptionsFromFlags({}).memoryBudgetBytes).toBeUndefined();
    for (const bad of ['8', 'lots', '-1', '512TB']) {
      expect(() => budget(bad)).toThrow(
        `--memory-budget must be a size of at least 16 MiB such as 512, 512MiB or 2GiB, got "${bad}"`,
      );
    }
    expect(coreOptionsFromFlags({ 'max-sessions': '10' }).maxActiveSessions).toBe(10);
    expect(coreOptionsFromFlags({ 'source-maps': ['.'] }).sourceMaps).toEqual({ folders: [process.cwd()] });
    expect(() => coreOptionsFromFlags({ 'source-maps': ['no/such/folder'] })).toThrow(
      '--source-maps must be a folder of source maps (*.map), got "no/such/folder"',
    );
    expect(() => coreOptionsFromFlags({ 'max-sessions': '0' })).toThrow('--max-sessions must be a whole number');
  });
});

describe('describeStartupError', () => {
  const options = { dataDir: '/data', debuggeePort: 7360, controlPort: 80 };
  const errno = (fields: Record<string, unknown>) => Object.assign(new Error('raw'), fields);

  it('names the port and its flag when listening is not allowed or the address is not here', () => {
    expect(describeStartupError(errno({ syscall: 'listen', code: 'EACCES', port: 80 }), options)).toBe(
      'cannot listen on port 80 (permission denied; ports below 1024 need privileges); pass --control-port <port> to use another (0 picks any free port)',
    );
    expect(
      describeStartupError(
        errno({ syscall: 'listen', code: 'EADDRNOTAVAIL', port: 7360, address: '10.9.9.9' }),
        options,
      ),
    ).toContain('the address 10.9.9.9 is not on this machine); pass --debuggee-port <port>');
  });

  it('keeps anything else to its first line', () => {
    expect(describeStartupError(new Error('first\n    at somewhere'), options)).toBe('could not start: first');
  });
});
