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

it('keeps what waits for a stalled inspector bounded: past 64 MiB unsent, a large body is recorded as cut at 0 bytes', async () => {
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

  const completed = () =>
    link.received
      .map((f) => (f.type === '(binary)' ? decodeBinaryFrame(f.bytes as Buffer) : { ok: true, message: f }))
      .flatMap((d) => (d.ok ? [d.message as unknown as Notification] : []))
      .flatMap((m) =>
        (m as { type: string }).type === 'batch' ? (m as unknown as { frames: Notification[] }).frames : [m],
      )
      .filter((m) => m.method === 'completed')
      .map((m) => m.params as TransactionCompleted);
  await waitFor(() => completed().length === DOWNLOADS || undefined, 'every completed notification', 20_000);
  const sizes = completed().map((c) => [c.body?.size, c.body?.truncated, c.body?.totalSize]);
  // The first ones went whole; once the link held over 64 MiB, the rest say they were cut.
  expect(sizes[0]).toEqual([8 * MIB, false, 8 * MIB]);
  expect(sizes).toContainEqual([0, true, 8 * MIB]);
  expect(sizes.filter(([size]) => size === 8 * MIB).length).toBeGreaterThanOrEqual(7);
  for (const c of completed()) if (c.body?.size) expect(c.body.data).toBe(body.toString());
});
