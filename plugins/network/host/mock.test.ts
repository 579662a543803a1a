import { describe, expect, it } from 'vitest';
import { connect } from '../../../agent/connection.js';
import { defineAgentPlugin } from '../../../agent/plugin.js';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { startTestCore, waitFor } from '../../../electron/host/testing.js';
import { network } from '../agent/index.js';
import { networkProtocol } from '../protocol.js';
import type { NetworkHost } from './host-api.js';
import { connectSilentApp, httpServer, type LocalServer, startNetworkDebuggee } from './testing.js';

describe('mock rules applied in a Node debuggee', () => {
  const defer = cleanupAfterEach();
  const debuggee = async (options?: Parameters<typeof startNetworkDebuggee>[0]) => {
    const d = await startNetworkDebuggee(options);
    defer(() => d.stop());
    return d;
  };
  const real = async () => {
    const s: LocalServer = await httpServer((req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end(`real ${req.url}`);
    });
    defer(() => s.close());
    return s;
  };

  it('answers the next fetch with the rule, counts hits, and gives the real answer again when mocking is off', async () => {
    const d = await debuggee();
    const s = await real();
    const { rule, config } = await d.host.addMockRule({
      name: 'user fails',
      match: { method: 'GET', url: { kind: 'contains', value: '/api/user' } },
      action: { type: 'respond', status: 503, body: { type: 'json', json: { error: 'down' } }, delayMs: 150 },
    });
    expect(config).toMatchObject({ revision: 1, enabled: true, sync: { state: 'applied', appliedRevision: 1 } });
    expect(d.plugin.mockConfig().rules.map((r) => r.id)).toEqual([rule.id]);

    const started = performance.now();
    const mocked = await fetch(`${s.url}/api/user`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(mocked.status).toBe(503);
    expect(mocked.headers.get('content-type')).toBe('application/json');
    expect(await mocked.json()).toEqual({ error: 'down' });
    expect(await (await fetch(`${s.url}/api/other`)).text()).toBe('real /api/other');
    await (await fetch(`${s.url}/api/user?again=1`)).text();

    await waitFor(() => d.host.mockConfig().hits[rule.id] === 2, 'two hits');
    const tx = await waitFor(
      () => d.host.transactions({ mockedOnly: true }).find((t) => t.state === 'complete'),
      'the mocked transaction',
    );
    expect(tx).toMatchObject({ mock: { ruleId: rule.id, ruleName: 'user fails' }, response: { status: 503 } });

    await d.host.setMockingEnabled(false);
    expect(await (await fetch(`${s.url}/api/user`)).text()).toBe('real /api/user');
    expect(d.host.mockConfig().hits[rule.id]).toBe(2);
  });

  it('answers with a network error when the rule says so', async () => {
    const d = await debuggee();
    const s = await real();
    const { rule } = await d.host.addMockRule({
      match: { url: { kind: 'glob', value: '*/offline/*' } },
      action: { type: 'networkError', message: 'simulated outage' },
    });
    const error = await fetch(`${s.url}/offline/x`).catch((e: unknown) => e);
    // as Node's fetch fails on a real network error: TypeError('fetch failed') with the cause
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).cause).toMatchObject({ message: 'simulated outage' });
    const tx = await waitFor(() => d.host.transactions({ failedOnly: true })[0], 'the failed transaction');
    expect(tx).toMatchObject({ state: 'failed', mock: { ruleId: rule.id }, error: { message: 'simulated outage' } });
  });

  it('never breaks the app: an oversized URL is clipped in the capture, an abort during a delay is just a failure', async () => {
    const d = await debuggee();
    await d.host.addMockRule({
      match: { url: { kind: 'contains', value: '127.0.0.1:2/' } },
      action: { type: 'respond', status: 200, body: { type: 'text', text: 'ok' }, delayMs: 300 },
    });
    const long = `http://127.0.0.1:2/${'a'.repeat(70_000)}`;
    const answer = await fetch(long);
    expect([answer.status, await answer.text()]).toEqual([200, 'ok']);
    const clipped = await waitFor(() => d.host.transactions().find((t) => t.state === 'complete'), 'the long one');
    expect(clipped.request.url).toBe(long.slice(0, 65_536));

    const controller = new AbortController();
    const aborted = fetch('http://127.0.0.1:2/abort-me', { signal: controller.signal }).catch((e: Error) => e);
    setTimeout(() => controller.abort(), 50);
    expect(((await aborted) as Error).name).toBe('AbortError');
    const tx = await waitFor(
      () => d.host.transactions({ urlContains: 'abort-me' }).find((t) => t.state === 'failed'),
      'the aborted one',
    );
    expect(tx.error?.message).toMatch(/abort/i);
    await new Promise((r) => setTimeout(r, 350)); // past the rule's delay: nothing may throw then
    expect(d.host.get(tx.id)?.state).toBe('failed');
  });

  it('refuses a rule with a bad regex and keeps the rules as they were', async () => {
    const d = await debuggee();
    await expect(
      d.host.addMockRule({
        match: { url: { kind: 'regex', value: '(unclosed' } },
        action: { type: 'respond', status: 200 },
      }),
    ).rejects.toThrow(/invalid regular expression/);
    expect(d.host.mockConfig()).toMatchObject({ revision: 0, rules: [] });
  });

  it('does not save a change the app refuses, and says why', async () => {
    const d = await debuggee({ network: { mocking: false } });
    const error = await d.host
      .addMockRule({ match: { url: { kind: 'contains', value: '/x' } }, action: { type: 'respond', status: 204 } })
      .catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^failed to apply on the debuggee: .*mocking is turned off in this app/);
    expect(d.host.mockConfig()).toMatchObject({ revision: 0, rules: [], sync: { state: 'failed' } });
  });

  it('does not save a change the app never acknowledges', async () => {
    const t = await startTestCore({ link: { requestTimeoutMs: 200 } });
    defer(() => t.stop());
    const agent = connectSilentApp(t.urls.debuggeeUrl);
    defer(() => agent.disconnect());
    const sessionId = await waitFor(() => agent.status.sessionId, 'the agent');
    const host = t.core.plugins.instance(sessionId, 'network') as unknown as NetworkHost;
    await expect(
      host.addMockRule({ match: { url: { kind: 'contains', value: '/x' } }, action: { type: 'respond', status: 200 } }),
    ).rejects.toThrow(/^failed to apply on the debuggee: no reply to network\.setMockConfig within 200 ms/);
    expect(host.mockConfig().rules).toEqual([]);
    expect(host.mockConfig().sync.state).toBe('failed');
  });

  it('pushes a rule change to every connected session of the same app', async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    const received: Record<string, number[]> = { first: [], second: [] };
    const instance = (name: 'first' | 'second') => {
      const recorder = defineAgentPlugin(networkProtocol, (ctx) => {
        ctx.handle('setMockConfig', (config) => {
          received[name]!.push(config.rules.length);
          return { revision: config.revision };
        });
      });
      const agent = connect({
        url: t.urls.debuggeeUrl,
        app: { id: 'com.test.twice', name: 'Twice' },
        plugins: [recorder],
      });
      defer(() => agent.disconnect());
      return agent;
    };
    const first = instance('first');
    const second = instance('second');
    const firstSession = await waitFor(() => first.status.sessionId, 'the first app');
    await waitFor(() => second.status.sessionId, 'the second app');
    await waitFor(() => received.first!.length === 1 && received.second!.length === 1, 'the configs pushed on connect');

    const host = t.core.plugins.instance(firstSession, 'network') as unknown as NetworkHost;
    await host.addMockRule({
      match: { url: { kind: 'contains', value: '/x' } },
      action: { type: 'respond', status: 204 },
    });
    await waitFor(() => received.second!.at(-1) === 1, 'the rule in the other session');
    expect(received).toEqual({ first: [0, 1], second: [0, 1] });
  });

  it('keeps the rules across a restart of the inspector and of the app', async () => {
    const s = await real();
    const first = await startNetworkDebuggee({ appId: 'com.test.persist' });
    defer(() => first.stop());
    const { dataDir } = first.t;
    const port = Number(new URL(first.t.urls.debuggeeUrl).port);
    await first.host.addMockRule({
      match: { url: { kind: 'exact', value: `${s.url}/persisted` } },
      action: { type: 'respond', status: 200, body: { type: 'text', text: 'from the rule' } },
    });
    await first.t.stop({ keepData: true });

    // The inspector restarts on the same port and data dir; the app reconnects by itself.
    const second = await startTestCore({ dataDir, debuggeePort: port });
    defer(() => second.stop());
    const sessionId = await waitFor(
      () => first.agent.status.state === 'connected' && first.agent.status.sessionId,
      'reconnect',
    );
    const host = second.core.plugins.instance(sessionId, 'network') as unknown as NetworkHost;
    await waitFor(() => host.mockConfig().sync.state === 'applied', 'the rules pushed on connect');
    expect(host.mockConfig().rules).toHaveLength(1);
    expect(await (await fetch(`${s.url}/persisted`)).text()).toBe('from the rule');

    // The app restarts: a new agent with no rules gets them pushed on connect.
    first.plugin.dispose();
    first.agent.disconnect();
    const plugin = network();
    await plugin.ready;
    defer(() => plugin.dispose());
    const agent = connect({
      url: second.urls.debuggeeUrl,
      app: { id: 'com.test.persist', name: 'Network Test' },
      plugins: [plugin],
    });
    defer(() => agent.disconnect());
    await waitFor(() => plugin.mockConfig().rules.length === 1, 'the rules on the new app');
    expect(await (await fetch(`${s.url}/persisted`)).text()).toBe('from the rule');
    expect(await (await fetch(`${s.url}/other`)).text()).toBe('real /other');
  });
});
