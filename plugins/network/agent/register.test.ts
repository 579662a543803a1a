import './register.js';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { httpServer, startNetworkDebuggee } from '../host/testing.js';

// The preload (`node --import porthole/register`): it is imported first in this file, as it would
// be before the app's code. Requests made before the app's network() joins are handed over to it.

describe('porthole/register', () => {
  const defer = cleanupAfterEach();

  it('captures requests made before network() and hands them over with their timing', async () => {
    const s = await httpServer((_req, res) => setTimeout(() => res.end('before'), 30));
    defer(() => s.close());
    const before = Date.now();
    await new Promise<void>((resolve, reject) => {
      request(`${s.url}/before-connect`, (res) => res.resume().on('end', resolve))
        .on('error', reject)
        .end();
    });
    await (await fetch(`${s.url}/before-connect-fetch`)).text();
    await new Promise((r) => setTimeout(r, 50));

    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    for (const path of ['/before-connect', '/before-connect-fetch']) {
      const tx = await waitFor(
        () =>
          d.host
            .transactions({ urlContains: path })
            .find((t) => t.state === 'complete' && t.request.url.endsWith(path)),
        path,
      );
      expect(tx.response?.body?.data).toBe('before');
      expect(tx.timing.startedAt).toBeGreaterThanOrEqual(before);
      expect(tx.timing.startedAt).toBeLessThan(before + 1000);
      expect(tx.timing.durationMs).toBeGreaterThanOrEqual(25);
      expect(tx.timing.durationMs).toBeLessThan(1000);
    }
  });
});
