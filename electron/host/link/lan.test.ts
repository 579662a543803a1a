import { statSync } from 'node:fs';
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanupAfterEach } from '../test-cleanup.js';
import { helloFrame, RawPeer, startTestCore, waitFor } from '../testing.js';
import { BridgeClient } from '../ui-bridge/bridge-testing.js';
import { pairingAddressKey, weakPairingToken } from './pairing.js';

/** A non-loopback IPv4 address of this machine, to reach the link "from the LAN". */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

const TOKEN = 'kq7Vx2mP9tLr4Wz8Nc3Hb6Yd';

/** The answer to a bare WebSocket upgrade request: its status, Retry-After and body. */
function upgradeStatus(host: string, port: number) {
  return new Promise<{ status?: number; retryAfter?: string; body: string }>((resolve, reject) => {
    const req = request({
      host,
      port,
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode, retryAfter: res.headers['retry-after'], body }));
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode, body: '' });
    });
    req.on('error', reject);
    req.end();
  });
}

describe.skipIf(!lanAddress)('debuggee link on the LAN', () => {
  const defer = cleanupAfterEach();
  let logged: string[];
  beforeEach(() => {
    logged = [];
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void logged.push(String(line)));
  });
  afterEach(() => vi.restoreAllMocks());

  it('requires the pairing token from non-loopback peers and marks their sessions as LAN', async () => {
    const t = await startTestCore({ lanPairingToken: TOKEN });
    defer(() => t.stop());
    const url = `ws://${lanAddress}:${t.core.link.port}`;

    const stranger = await RawPeer.open(url);
    stranger.send(helloFrame());
    expect(await stranger.next((f) => f.type === 'reject')).toMatchObject({ reason: 'pairing-required' });

    const paired = await RawPeer.open(url);
    paired.send(helloFrame({ pairingToken: TOKEN }));
    const welcome = await paired.next((f) => f.type === 'welcome');
    expect(t.core.sessions.get(welcome.sessionId as string)!.info.security).toBe('lan');

    const local = await RawPeer.open(t.urls.debuggeeUrl);
    local.send(helloFrame());
    const localWelcome = await local.next((f) => f.type === 'welcome');
    expect(t.core.sessions.get(localWelcome.sessionId as string)!.info.security).toBe('loopback');
    for (const peer of [paired, local]) peer.close();
  });

  it('slows wrong tokens down per address (429 with Retry-After at the upgrade), logs and counts them, and shows them in the window', async () => {
    const t = await startTestCore({ lanPairingToken: TOKEN });
    defer(() => t.stop());
    const window = await BridgeClient.open(t);
    defer(() => window.ws.close());
    const snapshot = await window.result<{ link?: { pairing?: unknown } }>('app.snapshot');
    expect(snapshot.link?.pairing).toEqual({ refused: 0, waiting: 0 });
    const url = `ws://${lanAddress}:${t.core.link.port}`;

    // A guessing loop as fast as one client can go, for 1.5 s (bounded): before, ~1,800 guesses a second.
    let checked = 0;
    let slowedDown = 0;
    const until = Date.now() + 1500;
    for (let i = 0; Date.now() < until && i < 2000; i++) {
      try {
        const guess = await RawPeer.open(url);
        guess.send(helloFrame({ pairingToken: `guess-${i}-${TOKEN}` }));
        await guess.next((f) => f.type === 'reject');
        checked++;
        guess.close();
      } catch (e) {
        expect((e as { status?: number }).status).toBe(429);
        slowedDown++;
      }
    }
    // Three free tries, then waits of 1 s, 2 s …: at most five tokens were even compared.
    expect(checked).toBeGreaterThanOrEqual(4);
    expect(checked).toBeLessThanOrEqual(5);
    expect(slowedDown).toBeGreaterThan(0);

    // Even the right token waits its turn, and is told for how long.
    const early = await upgradeStatus(lanAddress!, t.core.link.port);
    expect(early.status).toBe(429);
    expect(Number(early.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(early.body).toContain('try again in');

    const status = t.core.link.stats.pairing!;
    expect(status.refused).toBe(checked + slowedDown + 1);
    expect(status.waiting).toBe(1);
    expect(status.lastRefused).toMatchObject({ address: lanAddress });
    // Logged, but not one line per guess.
    expect(logged.some((l) => l.includes(`refused a LAN app at ${lanAddress}: a wrong pairing token`))).toBe(true);
    expect(logged.length).toBeLessThanOrEqual(20);
    expect(logged.join('\n')).not.toContain(TOKEN);

    // The window hears of it (coalesced), and lists the paired app once one pairs.
    await waitFor(
      () => window.events('link:stats').some((e) => (e.data as { pairing?: { refused: number } }).pairing?.refused),
      'a link:stats event',
    );
    await waitFor(() => t.core.link.stats.pairing!.waiting === 0, 'the wait to pass', 5000);
    const paired = await RawPeer.open(url);
    defer(() => paired.close());
    paired.send(helloFrame({ pairingToken: TOKEN }));
    await paired.next((f) => f.type === 'welcome');
    expect(t.core.sessions.list().find((s) => s.security === 'lan')).toBeDefined();
  });

  it('makes a strong token with a bare --lan, keeps it in <data-dir>/lan-token, and refuses a weak one', async () => {
    const t = await startTestCore({ lanPairingToken: true });
    defer(() => t.stop());
    const token = t.core.lanPairingToken!;
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect(weakPairingToken(token)).toBeUndefined();
    expect(statSync(join(t.dataDir, 'lan-token')).mode & 0o777).toBe(0o600);
    const paired = await RawPeer.open(`ws://${lanAddress}:${t.core.link.port}`);
    defer(() => paired.close());
    paired.send(helloFrame({ pairingToken: token }));
    await paired.next((f) => f.type === 'welcome');

    await expect(startTestCore({ lanPairingToken: 'sesame12' })).rejects.toThrow(/at least 24 random characters/);
    await expect(startTestCore({ lanPairingToken: 'a'.repeat(40) })).rejects.toThrow(/12 or more different/);
  });

  it('is not reachable from the LAN without --lan', async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    await expect(RawPeer.open(`ws://${lanAddress}:${t.core.link.port}`)).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('pairingAddressKey', () => {
  it('counts an IPv4 address alone and an IPv6 address by its /64', () => {
    expect(pairingAddressKey('192.168.1.5')).toBe('192.168.1.5');
    expect(pairingAddressKey('::ffff:192.168.1.5')).toBe('::ffff:192.168.1.5');
    expect(pairingAddressKey('fd00:1:2:3::5')).toBe(pairingAddressKey('fd00:1:2:3:aaaa:bbbb:cccc:dddd'));
    expect(pairingAddressKey('fd00:1:2:3::5')).not.toBe(pairingAddressKey('fd00:1:2:4::5'));
    expect(pairingAddressKey('fe80::1')).toBe('fe80:0:0:0::/64');
  });
});
