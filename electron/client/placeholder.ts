import WebSocket from 'ws';
import { CONSOLE_PROTOCOL_ID, CONSOLE_PROTOCOL_VERSION } from '../../plugins/console/constants.js';
import { NETWORK_PROTOCOL_ID, NETWORK_PROTOCOL_VERSION } from '../../plugins/network/constants.js';
import { PROTOCOL_VERSION } from '../../shared/protocol/frame-types.js';
import { CloseCode } from '../../shared/protocol/limits.js';
import type { AppInfo, DeviceInfo } from '../../shared/protocol/messages.js';

/** What a page needs to continue a session: its id and the secret of its welcome. */
export interface ResumeTicket {
  sessionId: string;
  secret: string;
}

export interface Placeholder {
  readonly ticket: ResumeTicket;
  /** Resolves when the page took the session over (or the link closed for another reason). */
  readonly replaced: Promise<boolean>;
  close(): void;
}

/**
 * A session opened for a page before the page exists: the Playwright fixture's test has a session
 * (and so a place for mock rules, which the inspector keeps per app) before its first navigation,
 * and the page's agent resumes it with the ticket (the inspector then closes this link with 4003).
 * It speaks the debuggee protocol (docs/protocol.md) with the plugins the page will run, and acknowledges
 * the mock configs the inspector sends; it has nothing to capture.
 */
export async function openPlaceholder(url: string, app: AppInfo, device: DeviceInfo): Promise<Placeholder> {
  const ws = new WebSocket(url);
  let heartbeat: NodeJS.Timeout | undefined;
  const send = (frame: Record<string, unknown>) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
  };
  const replaced = new Promise<boolean>((resolve) =>
    ws.once('close', (code) => {
      clearInterval(heartbeat);
      resolve(code === CloseCode.replaced);
    }),
  );
  const ticket = await new Promise<ResumeTicket>((resolve, reject) => {
    const fail = (why: string) => {
      ws.terminate();
      reject(new Error(`could not open a session at ${url} for the test's page: ${why}`));
    };
    const timer = setTimeout(() => fail('no welcome within 10 s'), 10_000);
    ws.once('error', (e) => fail(e.message));
    ws.once('close', (code, reason) => fail(`closed (${code}${reason.length ? `: ${reason}` : ''})`));
    ws.once('open', () =>
      send({
        type: 'hello',
        protocolVersion: PROTOCOL_VERSION,
        app,
        device,
        plugins: [
          { id: NETWORK_PROTOCOL_ID, version: NETWORK_PROTOCOL_VERSION },
          { id: CONSOLE_PROTOCOL_ID, version: CONSOLE_PROTOCOL_VERSION },
        ],
      }),
    );
    ws.on('message', (data) => {
      let frame: { type?: string; id?: string; plugin?: string; method?: string; params?: { revision?: unknown } };
      try {
        frame = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (frame.type === 'welcome') {
        clearTimeout(timer);
        ws.removeAllListeners('error');
        ws.removeAllListeners('close');
        ws.on('error', () => {});
        const welcome = frame as unknown as { sessionId: string; resumeSecret: string; heartbeatIntervalMs: number };
        heartbeat = setInterval(() => send({ type: 'heartbeat', t: Date.now() }), welcome.heartbeatIntervalMs);
        heartbeat.unref();
        resolve({ sessionId: welcome.sessionId, secret: welcome.resumeSecret });
      } else if (frame.type === 'reject') {
        fail(`refused: ${(frame as { message?: string }).message ?? 'no reason given'}`);
      } else if (frame.type === 'request' && frame.id) {
        // Mock rules are kept per app: acknowledging them here lets a test set them before its page loads.
        if (frame.plugin === NETWORK_PROTOCOL_ID && frame.method === 'setMockConfig')
          send({ type: 'reply-ok', id: frame.id, result: { revision: frame.params?.revision } });
        else
          send({
            type: 'reply-error',
            id: frame.id,
            error: { code: 'no-handler', message: `the page has not loaded yet: navigate first (${frame.method})` },
          });
      }
    });
  });
  return {
    ticket,
    replaced,
    close: () => {
      clearInterval(heartbeat);
      ws.close(CloseCode.normal, 'the test ended');
    },
  };
}
