import { startTestCore, waitFor } from '../electron/host/testing.js';
import type { NetworkHost } from '../plugins/network/host/host-api.js';

// A core in its own process, as the inspector is in real use: the app's process then pays only the
// agent's share of capture (the CPU time the bench reports is the app's alone). Commands come as
// IPC messages from the scenario that forked it (bench/scenarios/network-interception.ts).

const send = (m: unknown) => process.send!(m);
const t = await startTestCore();
const host = async () => {
  const id = await waitFor(() => t.core.sessions.list()[0]?.id, 'the bench session');
  return t.core.plugins.instance(id, 'network') as unknown as NetworkHost;
};
type Command = 'addMockRule' | 'removeMockRules' | 'settle' | 'cpu' | 'lastBody' | 'cutBodies' | 'stop';
process.on('message', async (m: { id: number; cmd: Command }) => {
  try {
    let result: unknown;
    if (m.cmd === 'addMockRule') {
      // one rule, whatever there was
      await (await host()).setMockRules([
        { match: { url: { kind: 'contains', value: '/never-requested' } }, action: { type: 'respond', status: 204 } },
      ]);
    } else if (m.cmd === 'removeMockRules') {
      await (await host()).setMockRules([]);
    } else if (m.cmd === 'settle') {
      const h = await host();
      await waitFor(() => h.stats().pending === 0, 'the last transactions', 60_000);
      const cpu = process.cpuUsage();
      result = { ...h.stats(), cpuMs: (cpu.user + cpu.system) / 1000 };
    } else if (m.cmd === 'cpu') {
      const cpu = process.cpuUsage();
      result = (cpu.user + cpu.system) / 1000;
    } else if (m.cmd === 'lastBody') {
      // What the host stored of the newest response body, to show the bench measured a real capture.
      const body = (await host()).list({ limit: 1 }).transactions[0];
      const tx = body && (await host()).get(body.id);
      const b = tx?.response?.body;
      result = b && { encoding: b.encoding, size: b.size, chars: b.data.length, truncated: b.truncated };
    } else if (m.cmd === 'cutBodies') {
      // Bodies recorded as cut (none should be: the bench's bodies are under the cap, and the link
      // is drained between blocks, so the agent's bound on unsent bytes never applies).
      result = (await host()).transactions().filter((tx) => tx.response?.body?.truncated).length;
    } else if (m.cmd === 'stop') await t.stop();
    send({ id: m.id, result });
    if (m.cmd === 'stop') process.disconnect();
  } catch (e) {
    send({ id: m.id, error: (e as Error).message });
  }
});
process.on('disconnect', () => void t.stop().finally(() => process.exit()));
send({ ready: t.urls.debuggeeUrl });
