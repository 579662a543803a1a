import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { httpServer, startNetworkDebuggee } from '../host/testing.js';
import { summarize } from '../host/transaction-store.js';
import { parseFrame, siteLabel } from '../panel/columns.js';
import { hub } from './observed.js';

// The initiator's call site: where in the app a request was made, as DevTools' Initiator column.

describe('the call site of a request (Node)', () => {
  const defer = cleanupAfterEach();

  it("names the app's own function and line for http.request, not the agent's wrapper", async () => {
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    const s = await httpServer((_req, res) => res.end('ok'));
    defer(() => s.close());

    function loadCart(): Promise<void> {
      return new Promise((resolve, reject) => {
        const req = httpRequest(`${s.url}/cart`, (res) => res.resume().on('end', () => resolve()));
        req.on('error', reject);
        req.end(); // the line the call site points to
      });
    }
    await loadCart();
    await fetch(`${s.url}/fetched`).then((r) => r.text());

    const tx = await waitFor(() => d.host.transactions({ urlContains: '/cart' })[0], 'the request');
    // The top frame is the req.end() line (inside the Promise executor), then loadCart that ran it.
    const frames = tx.callStack!.split('\n');
    expect(frames[0]).toContain('call-site.test.ts');
    expect(frames.some((f) => f.includes('loadCart'))).toBe(true);
    expect(tx.callStack).not.toMatch(/node-http|observed|end_/);
    const summary = summarize(tx);
    expect(parseFrame(summary.callSite)).toMatchObject({ file: expect.stringContaining('call-site.test.ts') });
    expect(siteLabel(summary)).toBe(`call-site.test.ts:${parseFrame(summary.callSite)!.line}`);
  });

  it('takes none with callSite: false, and the taps take none while no agent wants one', async () => {
    const d = await startNetworkDebuggee({ network: { callSite: false } });
    defer(() => d.stop());
    const s = await httpServer((_req, res) => res.end('ok'));
    defer(() => s.close());
    expect(hub().callSites).toBe(false);

    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${s.url}/quiet`, (res) => res.resume().on('end', () => resolve()));
      req.on('error', reject);
      req.end();
    });
    const tx = await waitFor(() => d.host.transactions({ urlContains: '/quiet' })[0], 'the request');
    expect(tx.callStack).toBeUndefined();
    expect(summarize(tx).callSite).toBeUndefined();
    // Without an agent that declines them, the taps take call sites again.
    d.plugin.dispose();
    expect(hub().callSites).toBe(true);
  });
});
