import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../test-cleanup.js';
import { helloFrame, RawPeer, startTestCore } from '../testing.js';

/** A non-loopback IPv4 address of this machine, to reach the link "from the LAN". */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

describe.skipIf(!lanAddress)('debuggee link on the LAN', () => {
  const defer = cleanupAfterEach();

  it('requires the pairing token from non-loopback peers and marks their sessions as LAN', async () => {
    const t = await startTestCore({ lanPairingToken: 'sesame' });
    defer(() => t.stop());
    const url = `ws://${lanAddress}:${t.core.link.port}`;

    const stranger = await RawPeer.open(url);
    stranger.send(helloFrame());
    expect(await stranger.next((f) => f.type === 'reject')).toMatchObject({ reason: 'pairing-required' });

    const paired = await RawPeer.open(url);
    paired.send(helloFrame({ pairingToken: 'sesame' }));
    const welcome = await paired.next((f) => f.type === 'welcome');
    expect(t.core.sessions.get(welcome.sessionId as string)!.info.security).toBe('lan');

    const local = await RawPeer.open(t.urls.debuggeeUrl);
    local.send(helloFrame());
    const localWelcome = await local.next((f) => f.type === 'welcome');
    expect(t.core.sessions.get(localWelcome.sessionId as string)!.info.security).toBe('loopback');
    for (const peer of [paired, local]) peer.close();
  });

  it('is not reachable from the LAN without --lan', async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    await expect(RawPeer.open(`ws://${lanAddress}:${t.core.link.port}`)).rejects.toThrow(/ECONNREFUSED/);
  });
});
