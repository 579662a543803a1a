import { describe, expect, it } from 'vitest';
import { SYNC_METHOD } from '../../../shared/protocol/messenger.js';
import { connectMcpClient } from '../mcp/mcp-testing.js';
import { cleanupAfterEach } from '../test-cleanup.js';
import { helloFrame, RawPeer, startTestCore } from '../testing.js';

// A tool answers after what the app sent before the call: the core asks the app's agent for a
// barrier ($sync) first, and the agent flushes its queued notifications before any reply. Here the
// app is a raw peer, so the test decides what it sends and when.

type Frame = { type: string; id?: string; plugin?: string; method?: string; timeoutMs?: number };

describe('a tool call waits for what the app sent before it', () => {
  const defer = cleanupAfterEach();

  async function start() {
    const t = await startTestCore({ mcp: { auth: 'none' } });
    defer(() => t.stop());
    const peer = await RawPeer.open(t.urls.debuggeeUrl);
    defer(() => peer.close());
    peer.send(helloFrame({ plugins: [{ id: 'console', version: '1.0.0' }] }));
    const { sessionId } = await peer.next<{ sessionId: string }>((f) => f.type === 'welcome');
    const mcp = await connectMcpClient('http', { ...t.urls, dataDir: t.dataDir });
    defer(() => mcp.close());
    const texts = async () => {
      const page = await mcp.client.callTool({ name: 'console_list_messages', arguments: { sessionId } });
      return (page.structuredContent as { messages: { text: string }[] }).messages.map((m) => m.text);
    };
    const log = (text: string) =>
      peer.send({
        type: 'notification',
        plugin: 'console',
        method: 'batch',
        params: { messages: [{ kind: 'log', time: Date.now(), args: [text] }], dropped: 0 },
      } as never);
    const syncs = () => peer.next<Frame>((f) => f.type === 'request' && f.method === SYNC_METHOD);
    return { peer, texts, log, syncs };
  }

  it('sees a message the app sends just before answering the barrier', async () => {
    const { peer, texts, log, syncs } = await start();
    const answer = texts();
    const sync = await syncs();
    expect(sync).toMatchObject({ plugin: 'console', timeoutMs: 300 });
    // The app's last batch leaves before its reply, as an agent's outbox does.
    log('queued before the call');
    peer.send({ type: 'reply-ok', id: sync.id, result: null } as never);
    expect(await answer).toContain('queued before the call');
  });

  it('answers from what is in when the app does not answer the barrier, and when it refuses it (an older agent)', async () => {
    const { peer, texts, log, syncs } = await start();
    log('already in');
    const silent = texts();
    await syncs(); // never answered: the tool goes on after the wait
    expect(await silent).toEqual(['already in']);

    const refused = texts();
    const sync = await syncs();
    peer.send({ type: 'reply-error', id: sync.id, error: { code: 'no-handler', message: 'unknown method' } } as never);
    expect(await refused).toEqual(['already in']);
  });
});
