import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInstance } from '../host/instance-file.js';
import { cleanupAfterEach } from '../host/test-cleanup.js';
import { waitFor } from '../host/testing.js';
import { runInspector } from './run-inspector.js';

const defer = cleanupAfterEach();

/** A stand-in for the test runner: a process whose end must stop the run's inspector. */
function fakeRunner() {
  const runner = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  defer(() => {
    runner.kill('SIGKILL');
  });
  return runner;
}

describe('the inspector of a test run', () => {
  it('is started once for workers that ask at the same time, and stops with the runner, its temp dir removed', async () => {
    const runner = fakeRunner();
    const workers = await Promise.all([1, 2, 3].map(() => runInspector({ runnerPid: runner.pid })));
    expect(workers.filter((w) => w.started)).toHaveLength(1);
    expect(new Set(workers.map((w) => w.debuggeeUrl)).size).toBe(1);
    const { dataDir } = workers[0]!;
    expect(dataDir).toBe(join(tmpdir(), `porthole-run-${runner.pid}`));
    const pid = readInstance(dataDir)!.pid;
    // A worker that comes later (a restarted one) finds it.
    expect(await runInspector({ runnerPid: runner.pid })).toMatchObject({ started: false, dataDir });

    runner.kill('SIGKILL');
    await waitFor(() => !existsSync(dataDir), 'the run inspector to stop and remove its data dir', 20_000);
    expect(() => process.kill(pid, 0)).toThrow();
  }, 60_000);

  it("uses the inspector running in a data dir of the user's, and leaves that dir when it stops", async () => {
    const runner = fakeRunner();
    const dataDir = mkdtempSync(join(tmpdir(), 'porthole-user-data-'));
    defer(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await runInspector({ runnerPid: runner.pid, dataDir });
    expect(first.started).toBe(true);
    expect(await runInspector({ runnerPid: runner.pid, dataDir })).toEqual({ ...first, started: false });
    runner.kill('SIGKILL');
    await waitFor(() => !readInstance(dataDir), 'the inspector to stop', 20_000);
    expect(existsSync(join(dataDir, 'mcp-token'))).toBe(true);
    expect(existsSync(join(dataDir, 'starting.lock'))).toBe(false);
  }, 60_000);
});
