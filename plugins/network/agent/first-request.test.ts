import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { httpServer, startNetworkDebuggee } from '../host/testing.js';

// Issue 31 §2: a Node service started with the preload keeps the rules it got for its next run, so
// a restarted service's first request meets them; the very first run, which had none yet, says
// its unmocked request went out before the rules.

const SERVICE = `
import '../register.ts';
import { connect } from '../../../../agent/index.ts';
import { network } from '../index.ts';
import { mockCacheFile } from '../mock-cache.ts';
const plugin = network();
const agent = connect({ url: process.env.PORTHOLE_URL, app: { id: 'com.test.network', name: 'Service' }, plugins: [plugin] });
// The service's first request, at once: before the agent's connection is open.
const first = await (await fetch(process.env.TARGET + '/api/first')).text();
while (agent.status.state !== 'connected') await new Promise((r) => setTimeout(r, 10));
console.log(JSON.stringify({ first, cache: mockCacheFile(), sessionId: agent.status.sessionId }));
// Runs until the test has read what it needs.
process.stdin.resume().on('end', () => {
  agent.disconnect();
  process.exit(0);
});
`;

describe('mocks in force from the first request (Node, preloaded)', () => {
  const defer = cleanupAfterEach();

  it("a restarted service's first fetch is mocked; the first run's is marked as sent before the rules", async () => {
    const dir = mkdtempSync(join(import.meta.dirname, '.first-request-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'service.ts'), SERVICE);
    const bundle = join(mkdtempSync(join(tmpdir(), 'porthole-service-')), 'service.mjs');
    defer(() => rmSync(join(bundle, '..'), { recursive: true, force: true }));
    await build({
      entryPoints: [join(dir, 'service.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: bundle,
      logLevel: 'error',
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    });
    const s = await httpServer((_req, res) => res.writeHead(500).end('real'));
    defer(() => s.close());
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    await d.host.addMockRule({
      match: { url: { kind: 'contains', value: '/api/first' } },
      action: { type: 'respond', status: 200, body: { type: 'text', text: 'mocked' } },
    });
    const service = async () => {
      const child = spawn(process.execPath, [bundle], {
        env: { ...process.env, PORTHOLE_URL: d.t.urls.debuggeeUrl, TARGET: s.url },
        stdio: ['pipe', 'pipe', 'inherit'],
        timeout: 30_000,
      });
      defer(() => child.kill());
      const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      const said = JSON.parse(line) as { first: string; cache: string; sessionId: string };
      return { ...said, stop: () => child.stdin.end() };
    };

    // First run: nothing kept yet, the request goes out, and its transaction says why.
    const one = await service();
    defer(() => rmSync(one.cache, { force: true }));
    expect(one.first).toBe('real');
    type Row = { id: string; status?: number; mockRuleId?: string; beforeRules?: true; load?: number };
    const first = async (sessionId: string) => {
      const list = await d.mcp.call('network_list_transactions', { sessionId, urlContains: '/api/first' });
      return (list.structuredContent as { transactions: Row[] }).transactions;
    };
    const [missed] = await waitFor(async () => {
      const rows = await first(one.sessionId);
      return rows[0]?.status ? rows : undefined;
    });
    one.stop();
    expect(missed).toMatchObject({ status: 500, beforeRules: true, load: 1 });
    expect(missed?.mockRuleId).toBeUndefined();

    // Restart: the first request is answered by the rule.
    const two = await service();
    expect(two.first).toBe('mocked');
    const [mocked] = await waitFor(async () => {
      const rows = await first(two.sessionId);
      return rows[0]?.status ? rows : undefined;
    });
    two.stop();
    expect(mocked).toMatchObject({ status: 200, mockRuleId: expect.any(String) });
    expect(mocked?.beforeRules).toBeUndefined();
  }, 60_000);
});
