import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { helloFrame, RawPeer, startTestCore, waitFor } from '../../../electron/host/testing.js';
import type { NetworkHost } from './host-api.js';

describe('network host against a fake agent sending bad frames', () => {
  const defer = cleanupAfterEach();

  async function fakeAgent() {
    const t = await startTestCore();
    defer(() => t.stop());
    const peer = await RawPeer.open(t.urls.debuggeeUrl);
    defer(() => peer.close());
    peer.send(
      helloFrame({ app: { id: 'com.test.fake', name: 'Fake' }, plugins: [{ id: 'network', version: '1.0.0' }] }),
    );
    const welcome = await peer.next((f) => f.type === 'welcome');
    const sessionId = welcome.sessionId as string;
    const host = t.core.plugins.instance(sessionId, 'network') as unknown as NetworkHost;
    // The host pushes the mock config on connect: answer it like an agent would.
    const push = await peer.next((f) => f.type === 'request' && f.method === 'setMockConfig');
    peer.send({
      type: 'reply-ok',
      id: push.id as string,
      result: { revision: (push.params as { revision: number }).revision },
    });
    await waitFor(() => host.mockConfig().sync.state === 'applied', 'the first push');
    const notify = (method: string, params: unknown) =>
      peer.send({ type: 'notification', plugin: 'network', method, params } as never);
    return { t, peer, sessionId, host, notify };
  }

  it('refuses malformed notifications with a protocol error, keeps the session and accepts good ones after', async () => {
    const { t, peer, sessionId, host, notify } = await fakeAgent();
    notify('started', { id: 'x1', method: 'GET' }); // no url, no headers, no initiator
    const refused = await peer.next((f) => f.type === 'protocol-error');
    expect(refused).toMatchObject({ code: 'invalid-message' });
    expect(refused.message).toMatch(/network\.started/);

    notify('started', 'not an object');
    notify('response', { id: 'x1', status: 'two hundred', statusText: '', headers: [], waitMs: 1 });
    notify('completed', { id: 'x1', body: { encoding: 'gzip', data: 1 }, durationMs: -5 });
    notify('nonsense', {});
    peer.send('{"type":"notification", broken json');
    for (let i = 0; i < 5; i++) await peer.next((f) => f.type === 'protocol-error');

    expect(host.transactions()).toEqual([]);
    expect(t.core.sessions.get(sessionId)?.info.active).toBe(true);

    // Notifications about transactions the host never saw are counted, not fatal.
    notify('response', { id: 'ghost', status: 200, statusText: 'OK', headers: [], waitMs: 1 });
    notify('started', {
      id: 'ok1',
      initiator: 'fetch',
      method: 'GET',
      url: 'http://api.test/fine',
      headers: [{ name: 'accept', value: '*/*' }],
      startedAt: Date.now(),
    });
    await waitFor(() => host.get('ok1'), 'the good transaction');
    expect(host.stats()).toMatchObject({ count: 1, pending: 1, orphans: 1 });
    expect(t.core.sessions.get(sessionId)?.info.protocolErrors).toBeGreaterThanOrEqual(6);
  });

  it('does not commit a mock change the agent answers with a malformed ack', async () => {
    const { peer, host } = await fakeAgent();
    const adding = host.addMockRule({
      match: { url: { kind: 'contains', value: '/x' } },
      action: { type: 'respond', status: 200 },
    });
    const push = await peer.next((f) => f.type === 'request' && f.method === 'setMockConfig');
    peer.send({ type: 'reply-ok', id: push.id as string, result: { applied: 'yes' } });
    await expect(adding).rejects.toThrow(/^failed to apply on the debuggee: invalid reply to network\.setMockConfig/);
    expect(host.mockConfig().rules).toEqual([]);

    // The host puts the saved config back on the agent after a failed push.
    const restore = await peer.next((f) => f.type === 'request' && f.method === 'setMockConfig');
    expect(restore.params).toMatchObject({ revision: 0, rules: [] });
  });
});
