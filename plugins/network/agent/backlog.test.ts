import { request } from 'node:http';
import type { Socket } from 'node:net';
import { expect, it } from 'vitest';
import { connect } from '../../../agent/connection.js';
import { startFakeInspector } from '../../../agent/testing.js';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { decodeBinaryFrame } from '../../../shared/protocol/binary-frame.js';
import type { Notification } from '../../../shared/protocol/messages.js';
import { httpServer } from '../host/testing.js';
import type { TransactionCompleted } from '../protocol.js';
import { network } from './index.js';

const defer = cleanupAfterEach();
const MIB = 1024 * 1024;
/** 12 downloads of 8 MiB, each captured and sent: seconds on a quiet machine, more on a loaded one. */
const TIMEOUT = 90_000;

it('keeps what waits for a stalled inspector bounded: past 64 MiB unsent, a large body is recorded as cut at 0 bytes', {
  timeout: TIMEOUT,
}, async () => {
  const body = Buffer.alloc(8 * MIB, 'backlog ');
  const server = await httpServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(body));
  defer(() => server.close());
  const inspector = await startFakeInspector({ batches: true, binaryNotifications: true });
  defer(() => inspector.close());
  const plugin = network({ maxBodyBytes: 8 * MIB });
  defer(() => plugin.dispose());
  const agent = connect({ url: inspector.url, app: { id: 'com.test.backlog', name: 'Backlog' }, plugins: [plugin] });
  defer(() => agent.disconnect());
  const link = await inspector.link();
  await waitFor(() => agent.status.state === 'connected', 'the agent to connect');
  // The inspector stops reading: what the agent sends piles up in the app.
  (link.ws as unknown as { _socket: Socket })._socket.pause();

  const DOWNLOADS = 12;
  for (let i = 0; i < DOWNLOADS; i++) {
    const got = await new Promise<number>((resolve, reject) => {
      request(`${server.url}/big/${i}`, (res) => {
        let n = 0;
        res.on('data', (c: Buffer) => {
          n += c.length;
        });
        res.on('end', () => resolve(n));
      })
        .on('error', reject)
        .end();
    });
    expect(got).toBe(body.length); // the app gets every byte whatever the capture does
    await new Promise((resolve) => setImmediate(resolve));
  }
  (link.ws as unknown as { _socket: Socket })._socket.resume();

  // Each frame decoded once, as it arrives (decoding them all again on every poll took seconds under load).
  const done: TransactionCompleted[] = [];
  let decoded = 0;
  const completed = () => {
    for (; decoded < link.received.length; decoded++) {
      const f = link.received[decoded]!;
      const d = f.type === '(binary)' ? decodeBinaryFrame(f.bytes as Buffer) : { ok: true, message: f };
      if (!d.ok) continue;
      const m = d.message as unknown as { type: string; frames?: Notification[] };
      for (const n of m.type === 'batch' ? m.frames! : [m as unknown as Notification])
        if (n.method === 'completed') done.push(n.params as TransactionCompleted);
    }
    return done;
  };
  await waitFor(() => completed().length === DOWNLOADS || undefined, 'every completed notification', TIMEOUT);
  const sizes = completed().map((c) => [c.body?.size, c.body?.truncated, c.body?.totalSize]);
  // The first ones went whole; once the link held over 64 MiB, the rest say they were cut.
  expect(sizes[0]).toEqual([8 * MIB, false, 8 * MIB]);
  expect(sizes).toContainEqual([0, true, 8 * MIB]);
  expect(sizes.filter(([size]) => size === 8 * MIB).length).toBeGreaterThanOrEqual(7);
  const text = body.toString();
  for (const c of completed()) if (c.body?.size) expect(c.body.data === text).toBe(true);
});
