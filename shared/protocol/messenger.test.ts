import { describe, expect, it } from 'vitest';
import { decode, encode } from './codec.js';
import type { SessionFrame } from './messages.js';
import { Messenger, RequestError, SYNC_METHOD, syncWith } from './messenger.js';

/** Two messengers joined back to back through the real codec, as two ends of a link. */
function pair(
  options: {
    maxInFlight?: number;
    timeoutMs?: number;
    handler?: (method: string, params: unknown, signal: AbortSignal) => unknown;
  } = {},
) {
  const notifications: [string, string, unknown][] = [];
  const errors: string[] = [];
  let b!: Messenger;
  const through = (target: () => Messenger) => (frame: SessionFrame) => {
    const decoded = decode(encode(frame));
    if (!decoded.ok) throw new Error(decoded.error.message);
    queueMicrotask(() => target().receive(decoded.message as SessionFrame));
  };
  const a: Messenger = new Messenger({
    send: through(() => b),
    isPluginActive: (p) => p === 'example',
    onRequest: () => {
      throw new RequestError('no-handler', 'a handles nothing');
    },
    onNotification: () => {},
    onProtocolError: (e) => errors.push(e.code),
    defaultTimeoutMs: options.timeoutMs,
    maxInFlight: options.maxInFlight,
  });
  b = new Messenger({
    send: through(() => a),
    isPluginActive: (p) => p === 'example',
    onRequest: ({ method, params, signal }) => {
      if (!options.handler) throw new RequestError('no-handler', `no handler for ${method}`);
      return options.handler(method, params, signal);
    },
    onNotification: (plugin, method, params) => notifications.push([plugin, method, params]),
  });
  return { a, b, notifications, errors };
}

describe('Messenger', () => {
  it('correlates replies with requests', async () => {
    const { a } = pair({ handler: (_m, params) => ({ doubled: (params as { n: number }).n * 2 }) });
    const results = await Promise.all([1, 2, 3].map((n) => a.request('example', 'double', { n })));
    expect(results).toEqual([{ doubled: 2 }, { doubled: 4 }, { doubled: 6 }]);
    expect(a.inFlight).toBe(0);
  });

  it('answers the $sync barrier itself (no handler sees it); sync() never rejects', async () => {
    const seen: string[] = [];
    const { a } = pair({ handler: (method) => seen.push(method) });
    await expect(a.request('example', SYNC_METHOD)).resolves.toBeNull();
    expect(seen).toEqual([]);
    await expect(syncWith(a, 'network', 50)).resolves.toBeUndefined(); // refused: not active there
  });

  it('fails with distinct codes: plugin-not-active, no-handler, handler-error, timeout', async () => {
    await expect(pair().a.request('network', 'x')).rejects.toMatchObject({ code: 'plugin-not-active' });
    await expect(pair().a.request('example', 'x')).rejects.toMatchObject({ code: 'no-handler' });
    const failing = pair({
      handler: () => {
        throw new Error('boom');
      },
    });
    await expect(failing.a.request('example', 'x')).rejects.toMatchObject({ code: 'handler-error', message: 'boom' });
    const slow = pair({ timeoutMs: 30, handler: () => new Promise(() => {}) });
    await expect(slow.a.request('example', 'x')).rejects.toMatchObject({ code: 'timeout' });
  });

  it('caps requests in flight', async () => {
    const { a } = pair({ maxInFlight: 2, handler: () => new Promise(() => {}) });
    void a.request('example', 'x').catch(() => {});
    void a.request('example', 'x').catch(() => {});
    await expect(a.request('example', 'x')).rejects.toMatchObject({ code: 'too-many-requests' });
    a.close('test over');
  });

  it('fails every pending request at once with peer-gone when closed', async () => {
    const { a } = pair({ handler: () => new Promise(() => {}) });
    const pending = [a.request('example', 'x'), a.request('example', 'y')];
    a.close('the debuggee disconnected');
    for (const p of pending)
      await expect(p).rejects.toMatchObject({ code: 'peer-gone', message: 'the debuggee disconnected' });
    await expect(a.request('example', 'z')).rejects.toMatchObject({ code: 'peer-gone' });
    expect(() => a.notify('example', 'n')).toThrow(RequestError);
  });

  it('cancels: the caller rejects at once and the handler sees its signal abort', async () => {
    let aborted = false;
    const { a } = pair({
      handler: (_m, _p, signal) =>
        new Promise((_, reject) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('stop'));
          });
        }),
    });
    const controller = new AbortController();
    const pending = a.request('example', 'x', undefined, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
    await new Promise((r) => setTimeout(r, 5));
    expect(aborted).toBe(true);
  });

  it('ignores a late reply to a timed-out request, but refuses a reply nobody asked for', async () => {
    let release!: () => void;
    const { a, errors } = pair({ timeoutMs: 20, handler: () => new Promise<void>((r) => (release = r)) });
    await expect(a.request('example', 'x')).rejects.toMatchObject({ code: 'timeout' });
    release();
    await new Promise((r) => setTimeout(r, 5));
    expect(errors).toEqual([]);
    a.receive({ type: 'reply-ok', id: 'nobody', result: 1 });
    expect(errors).toEqual(['unknown-correlation-id']);
  });

  it('delivers notifications only for active plugins', async () => {
    const { a, notifications } = pair();
    a.notify('example', 'log', { m: 1 });
    expect(() => a.notify('network', 'x')).toThrow(/not active/);
    await new Promise((r) => setTimeout(r, 5));
    expect(notifications).toEqual([['example', 'log', { m: 1 }]]);
  });
});
