import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readInstance } from '../host/instance-file.js';
import { launch } from '../host/launch.js';
import { connectInspector, type Inspector, type PortholeSession, scopedSession } from './inspector.js';

// `porthole/node`: Node services under test. startInspector() gives a test an inspector (its own, in
// this process, or one already running); startService() starts the service with the agent's preload
// and PORTHOLE_URL, finds its session by the device id it hands it, and gives the test a client aimed
// at that session, with the same checks as the Playwright fixture.

export interface StartInspectorOptions {
  /** Use the inspector running with this data dir (the desktop app's, say) instead of starting one. */
  dataDir?: string;
  /** How the call history names the test's client. Default "porthole-node". */
  clientName?: string;
}

export interface TestInspector {
  /** The typed client (every session, `inspector_*` tools). */
  readonly client: Inspector;
  /** Where apps connect: the service gets it as PORTHOLE_URL. */
  readonly debuggeeUrl: string;
  readonly dataDir: string;
  /** Closes the client, and stops the inspector if this call started it. */
  stop(): Promise<void>;
}

/** An inspector for the tests of this file: the one running in `dataDir`, or a new one on free ports. */
export async function startInspector(options: StartInspectorOptions = {}): Promise<TestInspector> {
  const clientName = options.clientName ?? 'porthole-node';
  const running = options.dataDir ? readInstance(options.dataDir) : undefined;
  if (options.dataDir && running) {
    const client = await connectInspector({ dataDir: options.dataDir, clientName });
    return { client, debuggeeUrl: running.debuggeeUrl, dataDir: options.dataDir, stop: () => client.close() };
  }
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'porthole-node-'));
  const launched = await launch({ dataDir, debuggeePort: 0, controlPort: 0 });
  const client = await connectInspector({ dataDir, clientName });
  return {
    client,
    debuggeeUrl: launched.urls.debuggeeUrl,
    dataDir,
    async stop() {
      await client.close().catch(() => {});
      await launched.stop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface StartServiceOptions {
  /** The service's entry file, run with this Node (`node [--import @porthole/agent/register] entry ...args`). */
  entry: string;
  args?: string[];
  cwd?: string;
  /** Added to this process's environment. */
  env?: Record<string, string>;
  /** Node flags before the entry, e.g. ['--enable-source-maps']. */
  nodeArgs?: string[];
  /**
   * Start it with `--import @porthole/agent/register` (default true), so requests made before the
   * service's own connect() are seen too. The package must be installed where the service runs.
   */
  preload?: boolean;
  /** Resolve once the service printed this (stdout or stderr), e.g. /listening on (\d+)/; its match is `ready`. */
  readyWhen?: RegExp;
  /** How long to wait for the output and the session. Default 20 s. */
  timeoutMs?: number;
}

export interface Service {
  /** The client aimed at the service's session: its tools and checks need no sessionId. */
  readonly porthole: PortholeSession;
  readonly sessionId: string;
  readonly process: ChildProcess;
  /** The match of `readyWhen`, e.g. the port in its first group. */
  readonly ready: RegExpMatchArray | undefined;
  /** Everything it printed so far (the last 1 MiB). */
  output(): string;
  /** SIGTERM (SIGKILL after 5 s); resolves with its exit code. */
  stop(): Promise<number | null>;
}

const MAX_OUTPUT = 1024 * 1024;

/**
 * Starts a Node service with the agent's preload and the inspector's URL, and waits until it printed
 * `readyWhen` and its agent connected. The service calls `connect()` from @porthole/agent as it does
 * in development; the device id it is given (PORTHOLE_DEVICE_ID) tells its session from any other.
 */
export async function startService(inspector: TestInspector, options: StartServiceOptions): Promise<Service> {
  const deviceId = `service-${randomUUID()}`;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      ...(options.preload === false ? [] : ['--import', '@porthole/agent/register']),
      options.entry,
      ...(options.args ?? []),
    ],
    {
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ...options.env,
        PORTHOLE_URL: inspector.debuggeeUrl,
        PORTHOLE_DEVICE_ID: deviceId,
        PORTHOLE_DEVICE_NAME: `${options.entry} (test)`,
      },
    },
  );
  let output = '';
  const heard = new Set<() => void>();
  const hear = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-MAX_OUTPUT);
    for (const listener of heard) listener();
  };
  child.stdout?.on('data', hear);
  child.stderr?.on('data', hear);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  const failure = (why: string) =>
    new Error(`${options.entry} ${why}; it printed:\n${output.slice(-4000) || '(nothing)'}`);

  try {
    const ready = options.readyWhen
      ? await new Promise<RegExpMatchArray>((resolve, reject) => {
          const check = () => {
            const match = options.readyWhen!.exec(output);
            if (match) done(() => resolve(match));
          };
          const timer = setTimeout(
            () => done(() => reject(failure(`did not print ${options.readyWhen} within ${timeoutMs} ms`))),
            timeoutMs,
          );
          const quit = (code: number | null) =>
            done(() => reject(failure(`exited (code ${code}) before it was ready`)));
          const done = (then: () => void) => {
            clearTimeout(timer);
            heard.delete(check);
            child.off('exit', quit);
            then();
          };
          heard.add(check);
          child.once('exit', quit);
          check();
        })
      : undefined;
    const session = await Promise.race([
      inspector.client.waitForSession({ deviceId }, { timeoutMs }),
      exited.then((code) => {
        throw failure(`exited (code ${code}) before its agent connected`);
      }),
    ]).catch((e: Error) => {
      throw e.message.includes('no session')
        ? failure(
            `did not connect to the inspector within ${timeoutMs} ms: it must call connect() from @porthole/agent (it is given PORTHOLE_URL=${inspector.debuggeeUrl})`,
          )
        : e;
    });
    const porthole = scopedSession(inspector.client, { target: async () => session.id });
    return { porthole, sessionId: session.id, process: child, ready, output: () => output, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
