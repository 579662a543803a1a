import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import axios from 'axios';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { httpServer, type LocalServer, startNetworkDebuggee } from '../host/testing.js';

// The mock path: interception only while the app has an active rule. Requests a rule answers are
// recorded once with its mark; the others go out and are recorded once by the taps; when the last
// rule goes, the interception goes with it (keep-alive is back).

const get = (url: string, agent?: HttpAgent) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    httpRequest(url, { agent }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });

describe('mock rules engage interception only while they exist', () => {
  const defer = cleanupAfterEach();

  it('answers matching requests of every client, records each request once, and removes itself after', async () => {
    const sockets = new Set<unknown>();
    const s: LocalServer = await httpServer((req, res) => {
      sockets.add(req.socket);
      res.end(`real ${req.url}`);
    });
    defer(() => s.close());
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    const { rule } = await d.host.addMockRule({
      match: { url: { kind: 'contains', value: '/mocked' } },
      action: { type: 'respond', status: 201, body: { type: 'text', text: 'from the rule' } },
    });

    expect(await get(`${s.url}/mocked/http`)).toEqual({ status: 201, body: 'from the rule' });
    const viaAxios = await axios.get(`${s.url}/mocked/axios`, { responseType: 'text' });
    expect([viaAxios.status, viaAxios.data]).toEqual([201, 'from the rule']);
    const viaFetch = await fetch(`${s.url}/mocked/fetch`);
    expect([viaFetch.status, await viaFetch.text()]).toEqual([201, 'from the rule']);
    expect(await get(`${s.url}/real/http`)).toEqual({ status: 200, body: 'real /real/http' });
    expect(await (await fetch(`${s.url}/real/fetch`)).text()).toBe('real /real/fetch');

    const all = await waitFor(() => {
      const txs = d.host.transactions();
      return txs.length >= 5 && txs.every((t) => t.state !== 'pending') ? txs : undefined;
    }, 'five finished transactions');
    const byPath = (p: string) => all.filter((t) => new URL(t.request.url).pathname === p);
    for (const p of ['/mocked/http', '/mocked/axios', '/mocked/fetch']) {
      expect(byPath(p)).toHaveLength(1);
      expect(byPath(p)[0]).toMatchObject({
        state: 'complete',
        mock: { ruleId: rule.id },
        response: { status: 201, body: { data: 'from the rule' } },
      });
    }
    for (const p of ['/real/http', '/real/fetch']) {
      expect(byPath(p)).toHaveLength(1);
      expect(byPath(p)[0]!.mock).toBeUndefined();
      expect(byPath(p)[0]!.response?.body?.data).toBe(`real ${p}`);
    }
    expect(d.host.mockConfig().hits[rule.id]).toBe(3);

    await d.host.removeMockRule(rule.id);
    sockets.clear();
    const agent = new HttpAgent({ keepAlive: true });
    defer(() => agent.destroy());
    for (let i = 0; i < 3; i++) expect((await get(`${s.url}/mocked/after-${i}`, agent)).status).toBe(200);
    expect(sockets.size).toBe(1);
  });

  it('leaves a request whose method and URL no rule can match on the observed path: keep-alive stays', async () => {
    const sockets = new Set<unknown>();
    const s: LocalServer = await httpServer((req, res) => {
      sockets.add(req.socket);
      res.end(`real ${req.url}`);
    });
    defer(() => s.close());
    const d = await startNetworkDebuggee();
    defer(() => d.stop());
    const { rule } = await d.host.addMockRule({
      match: { method: 'POST', url: { kind: 'contains', value: '/mocked' } },
      action: { type: 'respond', status: 201, body: { type: 'text', text: 'from the rule' } },
    });
    const agent = new HttpAgent({ keepAlive: true });
    defer(() => agent.destroy());
    // A GET to /mocked and anything else: no rule can match them.
    for (const p of ['/mocked/get', '/other/1', '/other/2'])
      expect((await get(`${s.url}${p}`, agent)).status).toBe(200);
    expect(sockets.size).toBe(1);
    const posted = await axios.post(`${s.url}/mocked/post`, 'x', { responseType: 'text', httpAgent: agent });
    expect([posted.status, posted.data]).toEqual([201, 'from the rule']);
    const all = await waitFor(() => {
      const txs = d.host.transactions();
      return txs.length >= 4 && txs.every((t) => t.state !== 'pending') ? txs : undefined;
    }, 'four finished transactions');
    expect(all.map((t) => [new URL(t.request.url).pathname, t.response?.status, t.mock?.ruleId])).toEqual([
      ['/mocked/get', 200, undefined],
      ['/other/1', 200, undefined],
      ['/other/2', 200, undefined],
      ['/mocked/post', 201, rule.id],
    ]);
  });
});
