import { describe, expect, it } from 'vitest';
import { Messenger } from '../../shared/protocol/messenger.js';
import { EventBus } from './event-bus.js';
import { SessionRegistry } from './sessions.js';
import { helloFrame } from './testing.js';

const link = () => ({
  messenger: new Messenger({
    send: () => {},
    isPluginActive: () => false,
    onRequest: () => undefined,
    onNotification: () => {},
  }),
  close: () => {},
});

function attach(registry: SessionRegistry, appId: string, deviceId = 'd1') {
  const hello = helloFrame({
    app: { id: appId, name: appId },
    device: { id: deviceId, name: deviceId, platform: 'node' },
  });
  const l = link();
  const { session } = registry.attach({
    hello: hello as never,
    accepted: [],
    incompatible: [],
    remoteAddress: '127.0.0.1',
    security: 'loopback',
    link: l,
  });
  return { session, link: l };
}

describe('SessionRegistry', () => {
  it('forgets the longest-disconnected sessions beyond its cap of inactive ones', async () => {
    const bus = new EventBus();
    const removed: string[] = [];
    bus.on('session:removed', ({ sessionId }) => removed.push(sessionId));
    const registry = new SessionRegistry(bus, 2);
    const sessions = ['a', 'b', 'c'].map((id) => attach(registry, id));
    for (const { session, link } of sessions) {
      registry.detach(session, link);
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(removed).toEqual([sessions[0]!.session.info.id]);
    expect(registry.list().map((s) => s.app.id)).toEqual(['b', 'c']);
  });

  it('never removes an active session, and groups sessions by device, then app', () => {
    const registry = new SessionRegistry(new EventBus());
    const first = attach(registry, 'shop', 'phone');
    attach(registry, 'shop', 'phone');
    attach(registry, 'admin', 'laptop');
    expect(registry.remove(first.session.info.id)).toBe(false);
    const groups = registry.grouped();
    expect(groups.map((g) => [g.device.id, g.apps.map((a) => [a.app.id, a.sessions.length])])).toEqual([
      ['phone', [['shop', 2]]],
      ['laptop', [['admin', 1]]],
    ]);
  });
});
