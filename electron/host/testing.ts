import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { Message } from '../../shared/protocol/messages.js';
import type { CoreOptions } from './core.js';
import { launch } from './launch.js';

/**
 * A real core on port 0 with a throwaway data dir, launched as `porthole serve` launches it (so
 * instance.json is there for `porthole mcp`).
 */
/**
 * A core on a temporary data dir. Its tools/list shows every plugin's tools (`listedPlugins: 'all'`)
 * unless a test asks for the real rule with `listedPlugins: 'offered'` (tools/plugin-listing.test.ts).
 */
export async function startTestCore(options: Partial<CoreOptions> = {}) {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'porthole-test-'));
  const { core, urls, stop } = await launch({
    dataDir,
    debuggeePort: 0,
    controlPort: 0,
    listedPlugins: 'all',
    ...options,
  });
  return {
    core,
    urls,
    dataDir,
    async stop({ keepData = false } = {}) {
      await stop();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` (sync or async) until it gives a truthy value. */
export async function waitFor<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  what = 'condition',
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A bare WebSocket peer that speaks raw frames, for testing what the link does with bad input. */
export class RawPeer {
  readonly received: unknown[] = [];
  closed: { code: number; reason: string } | undefined;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString();
      try {
        this.received.push(JSON.parse(text));
      } catch {
        this.received.push(text);
      }
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<RawPeer> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers });
      const peer = new RawPeer(ws);
      ws.once('open', () => resolve(peer));
      ws.once('unexpected-response', (_req, res) =>
        reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode })),
      );
      ws.once('error', reject);
    });
  }

  send(frame: Message | string): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Waits for the next received frame that matches. */
  next<T = Record<string, unknown>>(
    match: (frame: Record<string, unknown>) => boolean = () => true,
    timeoutMs = 3000,
  ): Promise<T> {
    let seen = 0;
    return waitFor(
      () => {
        for (; seen < this.received.length; seen++) {
          const frame = this.received[seen] as Record<string, unknown>;
          if (typeof frame === 'object' && match(frame)) {
            this.received.splice(seen, 1);
            return frame as T;
          }
        }
        return undefined;
      },
      'a frame',
      timeoutMs,
    );
  }

  waitClosed(timeoutMs = 3000) {
    return waitFor(() => this.closed, 'the link to close', timeoutMs);
  }

  close(): void {
    this.ws.close();
  }
}

export function helloFrame(overrides: Record<string, unknown> = {}): Message {
  return {
    type: 'hello',
    protocolVersion: 1,
    app: { id: 'com.test.app', name: 'Test App' },
    device: { id: 'device-1', name: 'Test Device', platform: 'node' },
    plugins: [{ id: 'example', version: '1.0.0' }],
    ...overrides,
  } as Message;
}
