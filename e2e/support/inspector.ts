import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface InstanceInfo {
  pid: number;
  version: string;
  debuggeeUrl: string;
  controlUrl: string;
  mcpUrl: string;
  uiUrl: string;
  [key: string]: unknown;
}

export interface RunningInspector {
  info: InstanceInfo;
  dataDir: string;
  process: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** SIGTERM, wait for a clean exit; the data dir is removed unless `keepData`. */
  stop(options?: { keepData?: boolean }): Promise<number | null>;
}

/**
 * Starts the real headless inspector (`porthole serve`) as a child process on free ports; `bin`
 * runs another copy of the CLI (an installed package) from `cwd`.
 */
export async function startInspector(
  options: { dataDir?: string; args?: string[]; bin?: string; cwd?: string } = {},
): Promise<RunningInspector> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'porthole-e2e-'));
  // A fresh data dir lists every built-in plugin's tools, as if the user had enabled them in the
  // window (the rule of issue 37 §3 is tested in electron/host/tools/plugin-listing.test.ts).
  if (!options.dataDir) {
    writeFileSync(
      join(dataDir, 'mcp-plugins.json'),
      JSON.stringify({
        offered: [],
        enabled: ['actions', 'console', 'example', 'network', 'react', 'state', 'storage', 'ui'],
      }),
    );
  }
  const instanceFile = join(dataDir, 'instance.json');
  rmSync(instanceFile, { force: true });
  const child = spawn(
    process.execPath,
    [
      options.bin ?? join(ROOT, 'bin/porthole.js'),
      'serve',
      '--data-dir',
      dataDir,
      '--debuggee-port',
      '0',
      '--control-port',
      '0',
      '--no-open',
      ...(options.args ?? []),
    ],
    { cwd: options.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1' } },
  );
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const deadline = Date.now() + 20_000;
  while (!existsSync(instanceFile)) {
    if (child.exitCode !== null) throw new Error(`the inspector exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the inspector did not start within 20 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const info = JSON.parse(readFileSync(instanceFile, 'utf8')) as InstanceInfo;
  return {
    info,
    dataDir,
    process: child,
    output: () => output,
    async stop({ keepData = false } = {}) {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
