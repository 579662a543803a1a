import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect } from '../../agent/connection.js';
import { consoleProtocol } from '../../plugins/console/protocol.js';
import { network } from '../../plugins/network/agent/index.js';
import { httpServer } from '../../plugins/network/host/testing.js';
import { freePort, servedInspector } from './serve-testing.js';
import { cleanupAfterEach } from './test-cleanup.js';
import { helloFrame, RawPeer, waitFor } from './testing.js';

// Defect 9 of issue 9: after a restart — clean or kill -9 — apps resume their sessions and the traffic is still there.

describe('durable sessions', () => {
  const defer = cleanupAfterEach();
  const inspector = (dataDir: string, port: number) => servedInspector({ dataDir, port }, defer);

  it('resumes the sessions and shows the traffic from before, after a kill -9 and after a clean stop', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'porthole-durable-'));
    defer(() => rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const server = await httpServer((req, res) => res.end(`real ${req.url}`));
    defer(() => server.close());

    const first = await inspector(dataDir, port);
    const agents = [0, 1, 2].map((i) => {
      const plugin = network();
      const agent = connect({
        url: `ws://127.0.0.1:${port}`,
        app: { id: `com.test.durable.${i}`, name: `Durable ${i}` },
        plugins: [plugin],
        reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
      });
      defer(() => agent.disconnect());
      return agent;
    });
    await waitFor(() => agents.every((a) => a.status.state === 'connected'), 'the apps to connect', 10_000);
    const sessionIds = agents.map((a) => a.status.sessionId!);
    for (const [i] of agents.entries()) await (await fetch(`${server.url}/before-kill/${i}`)).text();
    // The MCP client's own requests from this process are captured too: only the test server's count.
    const listed = async (call: typeof first.call, sessionId: string) =>
      (
        (await call('network_list_transactions', { sessionId, urlContains: server.url })).transactions as {
          url: string;
          state: string;
        }[]
      ).map((t) => new URL(t.url).pathname);
    // The three apps share this process: one of their network plugins captures its fetches.
    const counts = async (call: typeof first.call) =>
      Promise.all(sessionIds.map(async (id) => (await listed(call, id)).length));
    await waitFor(async () => (await counts(first.call)).includes(3), 'the traffic to be captured');
    const capturing = sessionIds[(await counts(first.call)).indexOf(3)]!;
    // Written within a second of the change.
    const saved = join(dataDir, 'sessions', 'sessions.json');
    await waitFor(
      () => existsSync(saved) && sessionIds.every((id) => readFileSync(saved, 'utf8').includes(id)),
      'the sessions to be saved',
      5000,
    );
    const transactionsFile = join(dataDir, 'sessions', capturing, 'network--transactions.jsonl');
    await waitFor(
      () => existsSync(transactionsFile) && readFileSync(transactionsFile, 'utf8').includes('/before-kill/2'),
      'the traffic to be saved',
      5000,
    );

    first.child.kill('SIGKILL');
    await first.exit;
    await waitFor(() => agents.every((a) => a.status.state !== 'connected'), 'the apps to notice');

    const second = await inspector(dataDir, port);
    await waitFor(() => agents.every((a) => a.status.state === 'connected'), 'the apps to reconnect', 10_000);
    expect(agents.map((a) => a.status.sessionId)).toEqual(sessionIds);
    const status = await second.call('inspector_list_sessions');
    expect(JSON.stringify(status)).toContain(sessionIds[0]);
    expect((await listed(second.call, capturing)).sort()).toEqual([
      '/before-kill/0',
      '/before-kill/1',
      '/before-kill/2',
    ]);

    // Traffic after the resume lands in the same sessions; a clean stop keeps it too.
    await (await fetch(`${server.url}/after-resume`)).text();
    await waitFor(async () => (await listed(second.call, capturing)).includes('/after-resume'), 'new traffic');
    second.child.kill('SIGTERM');
    expect(await second.exit).toBe(0);
    const third = await inspector(dataDir, port);
    await waitFor(() => agents.every((a) => a.status.state === 'connected'), 'the apps to reconnect again', 10_000);
    expect(agents.map((a) => a.status.sessionId)).toEqual(sessionIds);
    expect((await listed(third.call, capturing)).sort()).toEqual([
      '/after-resume',
      '/before-kill/0',
      '/before-kill/1',
      '/before-kill/2',
    ]);
  });

  it("keeps the console's messages and their counts across a kill -9", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'porthole-durable-'));
    defer(() => rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const hello = helloFrame({
      app: { id: 'com.test.durable.console', name: 'Console app' },
      plugins: [{ id: 'console', version: consoleProtocol.version }],
    });
    const batch = (texts: string[]) =>
      JSON.stringify({
        type: 'notification',
        plugin: 'console',
        method: 'batch',
        params: {
          messages: texts.map((text, i) => ({ kind: text.startsWith('!') ? 'error' : 'log', time: i, args: [text] })),
        },
      });
    const first = await inspector(dataDir, port);
    const app = await RawPeer.open(`ws://127.0.0.1:${port}`);
    defer(() => app.close());
    app.send(hello);
    const welcome = await app.next<{ sessionId: string; resumeSecret: string }>((f) => f.type === 'welcome');
    app.send(batch(['before the kill', 'again', 'again', '!it broke']));
    const listed = async (call: typeof first.call) =>
      (await call('console_list_messages', { sessionId: welcome.sessionId })) as {
        messages: { text: string; count: number; level: string }[];
      };
    await waitFor(async () => (await listed(first.call)).messages.length === 3, 'the messages');
    const messagesFile = join(dataDir, 'sessions', welcome.sessionId, 'console--messages.jsonl');
    await waitFor(
      () => existsSync(messagesFile) && readFileSync(messagesFile, 'utf8').includes('it broke'),
      'the messages to be saved',
      5000,
    );
    first.child.kill('SIGKILL');
    await first.exit;
    await app.waitClosed(5000);

    const second = await inspector(dataDir, port);
    const resumed = await RawPeer.open(`ws://127.0.0.1:${port}`);
    defer(() => resumed.close());
    resumed.send({ ...hello, resume: { sessionId: welcome.sessionId, secret: welcome.resumeSecret } } as typeof hello);
    expect(await resumed.next((f) => f.type === 'welcome')).toMatchObject({
      sessionId: welcome.sessionId,
      resumed: true,
    });
    resumed.send(batch(['after the restart']));
    await waitFor(async () => (await listed(second.call)).messages.length === 4, 'the new message');
    expect((await listed(second.call)).messages.map((m) => [m.text, m.count, m.level])).toEqual([
      ['before the kill', 1, 'info'],
      ['again', 2, 'info'],
      ['!it broke', 1, 'error'],
      ['after the restart', 1, 'info'],
    ]);
    const errors = (await second.call('console_list_errors', { sessionId: welcome.sessionId })) as {
      groups: { text: string }[];
    };
    expect(errors.groups.map((e) => e.text)).toEqual(['!it broke']);
  });
});
