import { describe, expect, it } from 'vitest';
import { connect } from '../../../agent/connection.js';
import { inProcessTransport } from '../../../electron/host/plugin-testing.js';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { startTestCore, waitFor } from '../../../electron/host/testing.js';
import { example } from '../../../plugins/example/agent/index.js';
import type { BridgeEvent } from '../../../shared/bridge.js';
import { BridgeClient, BridgeRequestError } from './bridge-client.js';

describe('BridgeClient against a real core', () => {
  const defer = cleanupAfterEach();

  const setup = async () => {
    const t = await startTestCore();
    defer(() => t.stop());
    const transport = inProcessTransport(t.core);
    const client = new BridgeClient(transport);
    await waitFor(() => client.state === 'open', 'the client to open');
    return { t, client, transport };
  };

  it('gets a validated snapshot and typed answers', async () => {
    const { client } = await setup();
    const snapshot = await client.request('app.snapshot', {});
    expect(snapshot.bridgeVersion).toBe(1);
    expect(snapshot.plugins.map((p) => p.id)).toContain('example');
    const { tools } = await client.request('tools.list', {});
    expect(tools.find((t) => t.name === 'example_send_ping')?.plugin).toBe('example');
  });

  it('turns refusals into BridgeRequestErrors with the core’s code and message', async () => {
    const { client } = await setup();
    const error = await client.request('sessions.remove', { sessionId: 'nope' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeRequestError);
    expect(error).toMatchObject({ code: 'not-found', message: expect.stringContaining('no session nope') });
    await expect(client.request('sessions.remove', { sessionId: 7 as never })).rejects.toMatchObject({
      code: 'invalid-params',
    });
  });

  it('delivers the core’s events in order, and runs a tool from the window recorded as surface ui', async () => {
    const { t, client } = await setup();
    const events: BridgeEvent[] = [];
    client.onEvents((batch) => events.push(...batch));
    const agent = connect({ url: t.urls.debuggeeUrl, app: { id: 'a', name: 'A' }, plugins: [example()] });
    defer(() => agent.disconnect());
    await waitFor(() => events.some((e) => e.event === 'session:connected'), 'session:connected');

    const { callId, result } = await client.request('tools.run', { name: 'example_send_ping', args: {} });
    expect(result.isError).toBe(false);
    expect(result.raw).toMatchObject({ roundTripMs: expect.any(Number) });
    await waitFor(() => events.some((e) => e.event === 'call:finished'), 'call:finished');
    const names = events.map((e) => e.event).filter((e) => e.startsWith('call:'));
    expect(names).toEqual(['call:started', 'call:finished']);
    const finished = events.find((e) => e.event === 'call:finished');
    expect(finished?.data).toMatchObject({ call: { id: callId, surface: 'ui', status: 'succeeded' } });
    const { call } = await client.request('history.get', { id: callId! });
    expect(call).toMatchObject({ tool: 'example_send_ping', args: {}, result: { isError: false } });
  });

  it('fails pending requests at once when the connection drops, and refuses new ones until it is back', async () => {
    const { t, client, transport } = await setup();
    const agent = connect({
      url: t.urls.debuggeeUrl,
      app: { id: 'a', name: 'A' },
      plugins: [example({ captureScreenshot: () => new Promise(() => {}) })],
    });
    defer(() => agent.disconnect());
    const sessionId = await waitFor(() => agent.status.sessionId, 'the agent to connect');
    const pending = client.request('panel.call', { sessionId, plugin: 'example', method: 'captureScreenshot' });
    transport.drop();
    await expect(pending).rejects.toMatchObject({ code: 'unavailable', message: 'the test dropped the connection' });
    await expect(client.request('app.snapshot', {})).rejects.toMatchObject({ code: 'unavailable' });
  });
});
