import { afterEach, expect, it } from 'vitest';
import { startTestCore, waitFor } from '../../electron/host/testing.js';
import type { ExampleHost } from '../../plugins/example/host.js';
import { startNodeApp } from './node-app.js';

const stops: (() => unknown)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

it('the demo Node service shows up as a session and answers ping', async () => {
  const t = await startTestCore();
  stops.push(() => t.stop());
  const app = await startNodeApp(t.urls.debuggeeUrl);
  stops.push(() => app.stop());
  const session = await waitFor(() => t.core.sessions.list().find((s) => s.active), 'the demo session');
  expect(session.app).toMatchObject({ id: 'dev.porthole.demo.node', name: 'Demo Node service' });
  const host = t.core.plugins.instance(session.id, 'example') as ExampleHost;
  expect((await host.ping()).agentTime).toBeGreaterThan(0);
});
