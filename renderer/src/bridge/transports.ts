import { BRIDGE_PATH, type ClientFrame, PRELOAD_GLOBAL, type PreloadBridge } from '../../../shared/bridge.js';
import type { ConnectionState, Transport } from './bridge-client.js';

/**
 * The window was opened with a link that did not work (used already, renewed, or from another
 * inspector): the core redirected to `#link-used`. The hash is taken out again, once read.
 */
export function takeLinkRefusal(location: Location, history: History): boolean {
  if (location.hash !== '#link-used') return false;
  history.replaceState(history.state, '', location.pathname + location.search);
  return true;
}

const NO_ACCESS =
  'this browser has no access to the inspector. Links to the window work once, and a new UI key ends every access: open the UI URL that `porthole ui` opens (it is also in <data-dir>/instance.json)';

/**
 * Headless mode: a WebSocket to `/bridge` on the page's own origin, reconnecting with capped backoff.
 * The session cookie (HttpOnly, set when the one-time link was opened) goes with it by itself.
 */
export class WebSocketTransport implements Transport {
  private ws: WebSocket | undefined;
  private frameListener: (frame: unknown) => void = () => {};
  private stateListener: (state: ConnectionState, detail?: string) => void = () => {};
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    private readonly origin: string,
    /** The page was opened with a link that was used already. */
    private readonly linkRefused = false,
  ) {
    queueMicrotask(() => this.open());
  }

  send(frame: ClientFrame): void {
    if (this.ws?.readyState !== WebSocket.OPEN) throw new Error('not connected to the inspector');
    this.ws.send(JSON.stringify(frame));
  }

  onFrame(listener: (frame: unknown) => void): void {
    this.frameListener = listener;
  }

  onState(listener: (state: ConnectionState, detail?: string) => void): void {
    this.stateListener = listener;
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.ws?.close(1000, 'the window closed');
  }

  private open(): void {
    if (this.stopped) return;
    this.stateListener('connecting');
    const url = `${this.origin.replace(/^http/, 'ws')}${BRIDGE_PATH}`;
    const ws = new WebSocket(url);
    this.ws = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.attempt = 0;
      this.stateListener('open');
    };
    ws.onmessage = (message) => {
      let frame: unknown;
      try {
        frame = JSON.parse(String(message.data));
      } catch {
        return console.error('[porthole] the core sent a frame that is not JSON');
      }
      this.frameListener(frame);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      if (this.stopped) return;
      void this.explain(opened).then((detail) => {
        this.stateListener('closed', detail);
        const delay = Math.min(10_000, 250 * 2 ** this.attempt++) * (0.75 + Math.random() * 0.5);
        this.timer = setTimeout(() => this.open(), delay);
      });
    };
  }

  /** A browser hides why a WebSocket upgrade failed; ask the same endpoint over HTTP to tell the user. */
  private async explain(wasOpen: boolean): Promise<string> {
    try {
      const res = await fetch(`${this.origin}${BRIDGE_PATH}`, { cache: 'no-store' });
      if (res.status === 401) {
        return this.linkRefused && !wasOpen ? `the link you opened was used already; ${NO_ACCESS}` : NO_ACCESS;
      }
      return wasOpen ? 'the connection to the inspector was lost; reconnecting' : 'cannot reach the bridge; retrying';
    } catch {
      return 'the inspector is not running (or not reachable); start it with `porthole serve`, retrying';
    }
  }
}

/** Desktop mode: the frames go through the preload (contextBridge + IPC), nothing else of Electron. */
export class PreloadTransport implements Transport {
  private stateListener: (state: ConnectionState, detail?: string) => void = () => {};
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly preload: PreloadBridge) {
    queueMicrotask(() => this.stateListener('open'));
  }

  send(frame: ClientFrame): void {
    this.preload.send(frame);
  }

  onFrame(listener: (frame: unknown) => void): void {
    this.unsubscribe = this.preload.onFrame(listener);
  }

  onState(listener: (state: ConnectionState, detail?: string) => void): void {
    this.stateListener = listener;
  }

  close(): void {
    this.unsubscribe?.();
  }
}

/** The preload bridge when the window runs inside Electron, else a WebSocket to the page's origin. */
export function createTransport(win: Window & typeof globalThis = window): Transport {
  const preload = (win as unknown as Record<string, PreloadBridge | undefined>)[PRELOAD_GLOBAL];
  if (preload) return new PreloadTransport(preload);
  return new WebSocketTransport(win.location.origin, takeLinkRefusal(win.location, win.history));
}
