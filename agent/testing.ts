import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { waitFor } from '../electron/host/testing.js';
import type { Hello, Welcome } from '../shared/protocol/messages.js';

/** One agent connection as the fake inspector sees it: raw frames both ways. */
export interface FakeLink {
  ws: WebSocket;
  hello: Hello;
  /** Frames from the agent after its hello, parsed (a binary one as `{ type: '(binary)', bytes }`). */
  received: Record<string, unknown>[];
  send(frame: unknown): void;
  /** Sends the welcome (done at once unless the inspector was started with `manualWelcome`). */
  welcome(): void;
  /** Waits for the next frame from the agent that matches, and takes it off `received`. */
  next(match?: (frame: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
}

/**
 * A WebSocket server that speaks the host side of the handshake by hand, so a test can send the
 * real agent anything (the real inspector would never send a bad frame).
 */
export async function startFakeInspector(welcome: Partial<Welcome> = {}, { manualWelcome = false } = {}) {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const links: FakeLink[] = [];
  server.on('connection', (ws) => {
    ws.once('message', (data) => {
      const hello = JSON.parse(data.toString()) as Hello;
      const number = links.length + 1;
      const link: FakeLink = {
        ws,
        hello,
        received: [],
        send: (frame) => ws.send(typeof frame === 'string' || Buffer.isBuffer(frame) ? frame : JSON.stringify(frame)),
        welcome: () => {},
        next: (match = () => true, timeoutMs = 3000) =>
          waitFor(
            () => {
              const i = link.received.findIndex(match);
              return i >= 0 ? link.received.splice(i, 1)[0] : undefined;
            },
            'a frame from the agent',
            timeoutMs,
          ),
      };
      ws.on('message', (frame, isBinary) =>
        link.received.push(isBinary ? { type: '(binary)', bytes: frame } : JSON.parse(frame.toString())),
      );
      link.welcome = () =>
        link.send({
          type: 'welcome',
          protocolVersion: 1,
          sessionId: `s${number}`,
          resumeSecret: 'secret',
          resumed: false,
          plugins: { accepted: hello.plugins, incompatible: [] },
          heartbeatIntervalMs: 10_000,
          maxFrameBytes: 16 * 1024 * 1024,
          ...welcome,
        } satisfies Welcome);
      if (!manualWelcome) link.welcome();
      links.push(link);
    });
  });
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    links,
    /** The next agent connection, once it has been welcomed. */
    link: (n = 1) => waitFor(() => links[n - 1], `agent connection ${n}`),
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
