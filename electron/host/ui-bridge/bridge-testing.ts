import WebSocket from 'ws';
import { BRIDGE_PATH, type ServerFrame } from '../../../shared/bridge.js';
import { type startTestCore, waitFor } from '../testing.js';

export type Started = Awaited<ReturnType<typeof startTestCore>>;

/**
 * What a browser gets for opening a window link: the `name=value` of the bridge's session cookie,
 * or undefined when the link token was refused (used, renewed, unknown).
 */
export async function uiCookie(controlUrl: string, linkToken: string): Promise<string | undefined> {
  const res = await fetch(`${controlUrl}/?token=${encodeURIComponent(linkToken)}`, { redirect: 'manual' });
  await res.body?.cancel();
  return res.headers.get('set-cookie')?.split(';')[0];
}

/** A raw bridge client: what a window page does, frame by frame. */
export class BridgeClient {
  readonly frames: ServerFrame[] = [];
  private nextId = 1;
  closed: { code: number } | undefined;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.frames.push(JSON.parse(data.toString())));
    ws.on('close', (code) => (this.closed = { code }));
  }

  /**
   * Opens the bridge as a browser does: the one-time link token (default: the inspector's unused
   * link) is exchanged for the session cookie at `GET /?token=`, and the cookie goes with the upgrade.
   */
  static async open(
    t: { urls: { controlUrl: string }; core: { ui: { token: string } } },
    { token, origin, cookie }: { token?: string; origin?: string; cookie?: string } = {},
  ) {
    const session = cookie ?? (await uiCookie(t.urls.controlUrl, token ?? t.core.ui.token));
    const url = `${t.urls.controlUrl.replace('http', 'ws')}${BRIDGE_PATH}`;
    return await new Promise<BridgeClient>((resolve, reject) => {
      const ws = new WebSocket(url, { headers: { ...(origin && { origin }), ...(session && { cookie: session }) } });
      const client = new BridgeClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res) =>
        reject(Object.assign(new Error('refused'), { status: res.statusCode })),
      );
      ws.once('error', reject);
    });
  }

  sendRaw(data: string): void {
    this.ws.send(data);
  }

  async request(method: string, params?: unknown): Promise<Extract<ServerFrame, { type: 'reply' }>> {
    const id = `r${this.nextId++}`;
    this.ws.send(JSON.stringify({ type: 'request', id, method, params }));
    return await waitFor(
      () => this.frames.find((f): f is Extract<ServerFrame, { type: 'reply' }> => f.type === 'reply' && f.id === id),
      `the reply to ${method}`,
    );
  }

  async result<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T> {
    const reply = await this.request(method, params);
    if (!reply.ok) throw new Error(`${method} failed: ${reply.error.code} ${reply.error.message}`);
    return reply.result as T;
  }

  events(name: string): { event: string; data: Record<string, unknown> }[] {
    return this.frames.flatMap((f) => (f.type === 'events' ? f.events : [])).filter((e) => e.event === name) as never;
  }
}
