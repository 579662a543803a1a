import { parentPort } from 'node:worker_threads';
import { startTestCore, waitFor } from '../electron/host/testing.js';
import type { NetworkHost } from '../plugins/network/host/host-api.js';

// A core on its own thread, as the inspector is its own process in real use: what the app's thread
// then pays for capture is the agent's share only. Commands come as messages (bench/scenarios).

const t = await startTestCore();
const host = async () => {
  const id = await waitFor(() => t.core.sessions.list()[0]?.id, 'the bench session');
  return t.core.plugins.instance(id, 'network') as unknown as NetworkHost;
};
parentPort!.on('message', async (m: { id: number; cmd: 'addMockRule' | 'settle' | 'stop' }) => {
  try {
    let result: unknown;
    if (m.cmd === 'addMockRule') {
      await (await host()).addMockRule({
        match: { url: { kind: 'contains', value: '/never-requested' } },
        action: { type: 'respond', status: 204 },
      });
    } else if (m.cmd === 'settle') {
      const h = await host();
      await waitFor(() => h.stats().pending === 0, 'the last transactions', 30_000);
      result = h.stats();
    } else if (m.cmd === 'stop') await t.stop();
    parentPort!.postMessage({ id: m.id, result });
  } catch (e) {
    parentPort!.postMessage({ id: m.id, error: (e as Error).message });
  }
});
parentPort!.postMessage({ ready: t.urls.debuggeeUrl });
