import { expect, it } from 'vitest';
import { cleanupAfterEach } from '../../electron/host/test-cleanup.js';
import { startTestCore, waitFor } from '../../electron/host/testing.js';
import type { ExampleHost } from '../../plugins/example/host/index.js';
import { startNodeApp } from './node-app.js';

const defer = cleanupAfterEach();

it('the demo Node service shows up as a session with its plugins, answers ping, and its traffic is captured', async () => {
  const t = await startTestCore();
  defer(() => t.stop());
  const app = await startNodeApp(t.urls.debuggeeUrl, { intervalMs: 50, onStatus: () => {} });
  defer(() => app.stop());
  const session = await waitFor(() => t.core.sessions.list().find((s) => s.active), 'the demo session');
  expect(session.app).toMatchObject({ id: 'dev.porthole.demo.node', name: 'Demo Node service' });
  const host = t.core.plugins.instance(session.id, 'example') as ExampleHost;
  expect((await host.ping()).agentTime).toBeGreaterThan(0);
  expect(session.plugins.accepted.map((p) => p.id).sort()).toEqual(['actions', 'console', 'example', 'network']);
  const listed = async () =>
    (await t.core.tools.run('network_list_transactions', { urlContains: '/orders' })).result.structuredContent as {
      total: number;
    };
  for (let i = 0; i < 100 && (await listed()).total === 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect((await listed()).total).toBeGreaterThan(0);
});
