import { type Attached, inlineAttached } from '../shared/protocol/attachment.js';
import { binaryNotificationParts } from '../shared/protocol/binary-notification.js';
import { byteLength, decodeFrame, encode, FrameLimitError } from '../shared/protocol/frame.js';
import { PROTOCOL_VERSION, RETRYABLE_REJECT_REASONS, SESSION_FRAME_TYPES } from '../shared/protocol/frame-types.js';
import { CloseCode, Limits } from '../shared/protocol/limits.js';
import type { DeviceInfo, Message, Notification, Reject, SessionFrame, Welcome } from '../shared/protocol/messages.js';
import { Messenger, RequestError } from '../shared/protocol/messenger.js';
import { checkShape } from '../shared/protocol/shape-check.js';
import { type SilenceWatch, watchSilence } from '../shared/protocol/silence-watch.js';
import { detectDevice, randomId } from './device.js';
import { resolveWebSocket, sendBinary } from './link-socket.js';
import { madeFrame } from './made-frame.js';
import { type AgentStatus, type ConnectOptions, DEFAULT_URL, env } from './options.js';
import { Outbox } from './outbox.js';
import type { AgentPlugin } from './plugin.js';
import { ResumeStore } from './resume-store.js';
import { makeOwnLink, OPEN, type WebSocketLike } from './websocket.js';

// The agent's link to the inspector: the socket, the handshake, resume, batching, requests both
// ways and heartbeats. connect() (connection.ts) loads this module as it starts, beside the app's
// own startup; until it is here, what plugins note waits in their offline buffers.

const envUrl = () => env('PORTHOLE_URL');

const exiting = new Set<() => void>();
let exitHooked = false;

/** Node: notifications waiting for the end of this turn are written before the process exits. */
function flushOnExit(flush: () => void, add: boolean): void {
  const proc = (globalThis as { process?: { once?(event: 'exit', f: () => void): void } }).process;
  if (typeof proc?.once !== 'function') return;
  if (add && !exitHooked) {
    exitHooked = true;
    proc.once('exit', () => {
      for (const f of exiting) f();
    });
  }
  if (add) exiting.add(flush);
  else exiting.delete(flush);
}

/** When this run began: a page's navigation start, a process's start (performance.timeOrigin), else now. */
function runStartedAt(): number {
  const origin = (globalThis as { performance?: { timeOrigin?: number } }).performance?.timeOrigin;
  return typeof origin === 'number' && origin > 0 ? Math.round(origin) : Date.now();
}

/** Equal-jitter exponential backoff: half the capped delay is fixed, half random. */
export function backoffDelay(attempt: number, initialMs: number, maxMs: number, random = Math.random): number {
  const capped = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(capped / 2 + random() * (capped / 2));
}

/** What the inspector may send before its welcome. */
const HANDSHAKE_REPLIES = ['welcome', 'reject', 'heartbeat', 'protocol-error'] as const;

/** What the link reports to: the agent connect() answered. */
export interface LinkOwner {
  readonly status: AgentStatus;
  setStatus(status: AgentStatus): void;
}

export class Link {
  private readonly device: DeviceInfo;
  /** This run of the app (a page load, a process start): one id for all its reconnects. */
  private readonly load = { id: randomId(), startedAt: runStartedAt() };
  private socket: WebSocketLike | undefined;
  private messenger: Messenger | undefined;
  /** Set when the inspector takes batch frames. */
  private outbox: Outbox | undefined;
  private readonly resume: ResumeStore;
  /** The plugins the inspector accepted, with the protocol version it speaks for each (if it said). */
  private accepted = new Map<string, string | undefined>();
  /** The limit the inspector announced in its welcome. */
  private maxFrameBytes: number | undefined;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private stopped = false;
  private silence: SilenceWatch | undefined;

  constructor(
    private readonly options: ConnectOptions,
    /** The app's plugins by id, their offline buffers already in place. */
    private readonly plugins: Map<string, AgentPlugin>,
    private readonly owner: LinkOwner,
  ) {
    this.device = detectDevice(options.device);
    this.resume = new ResumeStore(options.app.id);
    for (const [id, plugin] of plugins) {
      plugin.runtime.link = {
        notify: (_, method, params, attached) => this.send(id, method, params, attached),
        flush: () => this.outbox?.flush(),
        unsentBytes: () => this.socket?.bufferedAmount ?? 0,
        request: (_, method, params, requestOptions) => {
          if (!this.messenger) return Promise.reject(new RequestError('peer-gone', 'the inspector is not connected'));
          return this.messenger.request(id, method, params, requestOptions);
        },
      };
    }
    flushOnExit(this.flushNow, true);
    void this.open();
  }

  private readonly flushNow = () => this.outbox?.flush();

  private get current(): AgentStatus {
    return this.owner.status;
  }

  disconnect(): void {
    this.stopped = true;
    this.clearTimers();
    this.outbox?.flush();
    flushOnExit(this.flushNow, false);
    this.socket?.close(CloseCode.normal, 'the app disconnected');
    this.lost('disconnected by the app');
    this.setStatus({ state: 'stopped', attempt: 0, sessionId: this.resume.get()?.sessionId });
  }

  private async open(): Promise<void> {
    if (this.stopped) return;
    this.setStatus({ ...this.current, state: 'connecting', retryInMs: undefined });
    let socket: WebSocketLike;
    try {
      const WebSocketImpl = await resolveWebSocket(this.options.WebSocket);
      if (this.stopped) return;
      const url = this.options.url ?? envUrl() ?? DEFAULT_URL;
      socket = makeOwnLink(() => new WebSocketImpl(url));
    } catch (e) {
      return this.retry(e instanceof Error ? e.message : String(e));
    }
    this.socket = socket;
    let opened = false;
    // A socket that neither opens nor fails (an inspector gone half-way) is given up and tried again.
    this.later(() => {
      if (opened || this.socket !== socket) return;
      this.socket = undefined;
      try {
        socket.close();
      } catch {
        // it was never open
      }
      this.retry(`no answer from the inspector within ${(Limits.handshakeTimeoutMs * 2) / 1000} s`);
    }, Limits.handshakeTimeoutMs * 2);
    let welcomed = false;
    let closedReason: string | undefined;
    let reported: Record<string, number> | undefined;

    socket.addEventListener('open', () => {
      opened = true;
      this.write(socket, {
        type: 'hello',
        protocolVersion: PROTOCOL_VERSION,
        app: this.options.app,
        device: this.device,
        plugins: [...this.plugins.values()].map((p) => ({ id: p.protocol.id, version: p.protocol.version })),
        load: this.load,
        resume: this.resume.get(),
        dropped: (reported = this.droppedCounts()),
        pairingToken: this.options.pairingToken,
      });
      this.later(() => {
        if (!welcomed && this.socket === socket)
          socket.close(CloseCode.handshakeTimeout, 'no welcome from the inspector');
      }, Limits.handshakeTimeoutMs * 2);
    });

    const receive = (data: unknown) => {
      const refuse = (message: string) =>
        this.write(socket, { type: 'protocol-error', code: 'invalid-message', message });
      if (typeof data !== 'string') return refuse('frames must be UTF-8 JSON text, not binary');
      const maxBytes = this.maxFrameBytes ?? Limits.maxFrameBytes;
      if (data.length * 3 > maxBytes && byteLength(data) > maxBytes) {
        return refuse(`a frame of ${byteLength(data)} bytes exceeds the ${maxBytes}-byte limit`);
      }
      const decoded = decodeFrame(data, checkShape, { accept: welcomed ? SESSION_FRAME_TYPES : HANDSHAKE_REPLIES });
      if (!decoded.ok) {
        if (decoded.answer) this.write(socket, decoded.error);
        return;
      }
      const message = decoded.message;
      if (message.type === 'welcome') {
        welcomed = true;
        for (const [id, n] of Object.entries(reported ?? {})) {
          const buffer = this.plugins.get(id)?.runtime.buffer;
          if (buffer) buffer.dropped -= n;
        }
        return this.welcomed(socket, message);
      }
      if (message.type === 'reject') {
        closedReason = `the inspector refused the connection: ${message.message}`;
        if (!(RETRYABLE_REJECT_REASONS as readonly string[]).includes(message.reason)) this.stopForGood(message);
        return;
      }
      if (message.type === 'heartbeat') return;
      if (message.type === 'protocol-error') {
        console.warn(`[porthole] the inspector refused a frame: ${message.message}`);
        return;
      }
      this.messenger?.receive(message as SessionFrame);
    };

    socket.addEventListener('message', (event) => {
      if (this.socket !== socket) return;
      this.silence?.heard();
      // Nothing the inspector sends may throw into the app.
      try {
        receive(event.data);
      } catch (e) {
        console.warn('[porthole] failed on a frame from the inspector:', e);
      }
    });

    socket.addEventListener('close', (event) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      if (event.code === CloseCode.replaced) this.resume.forget();
      const reason = closedReason ?? `connection closed (${event.code}${event.reason ? `: ${event.reason}` : ''})`;
      this.lost(reason);
      if (!this.stopped) this.retry(reason);
    });
    socket.addEventListener('error', () => {
      // 'close' follows with the code
    });
  }

  private welcomed(socket: WebSocketLike, welcome: Welcome): void {
    this.resume.set({ sessionId: welcome.sessionId, secret: welcome.resumeSecret });
    this.maxFrameBytes = welcome.maxFrameBytes;
    this.accepted = new Map(welcome.plugins.accepted.map((p) => [p.id, p.host]));
    const outbox = welcome.batches
      ? new Outbox(
          (text) => {
            if (socket.readyState !== OPEN) throw new Error('the inspector connection is closed');
            socket.send(text);
          },
          welcome.maxFrameBytes,
          (frames) => this.keep(frames),
          (frame, error) => console.warn(`[porthole] dropped ${frame.plugin}.${frame.method}: ${error.message}`),
        )
      : undefined;
    this.outbox = outbox;
    this.messenger = new Messenger({
      idPrefix: 'a',
      send: (given, attached) => {
        if (socket.readyState !== OPEN) throw new Error('the inspector connection is closed');
        if (outbox && given.type === 'notification' && !attached) return outbox.notify(given);
        const frame = given.type === 'notification' ? madeFrame(given) : given;
        if (attached && frame.type === 'notification') {
          if (!welcome.binaryNotifications) return this.sendFrame(socket, outbox, inlineAttached(frame, attached));
          const parts = binaryNotificationParts(frame, attached, welcome.maxFrameBytes);
          outbox?.flush(); // what was notified before goes first
          sendBinary(socket, parts, attached.blob);
          return;
        }
        outbox?.flush(); // what was notified before goes first
        socket.send(encode(frame, welcome.maxFrameBytes));
      },
      isPluginActive: (id) => this.accepted.has(id),
      onRequest: ({ plugin, method, params, signal }) => {
        const target = this.plugins.get(plugin);
        if (!target) throw new RequestError('plugin-not-active', `the app has no "${plugin}" plugin`);
        return target.runtime.handleRequest(method, params, signal);
      },
      onNotification: (plugin, method, params) => this.plugins.get(plugin)?.runtime.handleNotification(method, params),
    });
    this.setStatus({
      state: 'connected',
      attempt: 0,
      sessionId: welcome.sessionId,
      incompatiblePlugins: welcome.plugins.incompatible,
    });
    for (const [id, plugin] of this.plugins) plugin.runtime.setConnected(this.accepted.has(id), this.accepted.get(id));
    this.flush();
    this.startHeartbeat(socket, welcome.heartbeatIntervalMs);
  }

  /** Sends what plugins buffered while offline, in the order they were made. */
  private flush(): void {
    const entries = [...this.plugins.values()].flatMap((p) => p.runtime.buffer.drain()).sort((a, b) => a.seq - b.seq);
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      if (!this.accepted.has(entry.plugin)) continue;
      if (!this.send(entry.plugin, entry.method, entry.params, entry.attached)) {
        for (const plugin of this.plugins.values()) {
          plugin.runtime.buffer.restore(entries.slice(i).filter((e) => e.plugin === plugin.protocol.id));
        }
        return;
      }
    }
  }

  private sendFrame(socket: WebSocketLike, outbox: Outbox | undefined, frame: Notification): void {
    if (outbox) return outbox.notify(frame);
    socket.send(encode(frame, this.maxFrameBytes));
  }

  private send(plugin: string, method: string, params: unknown, attached?: Attached): boolean {
    if (!this.messenger || !this.socket || this.socket.readyState !== OPEN) return this.unsent();
    try {
      this.messenger.notify(plugin, method, params, attached);
      return true;
    } catch (e) {
      if (e instanceof RequestError && e.code === 'plugin-not-active') return true; // refused by the inspector: dropped
      if (e instanceof FrameLimitError) {
        console.warn(`[porthole] dropped ${plugin}.${method}: ${e.message}`);
        return true;
      }
      return this.unsent();
    }
  }

  /** A notification could not be sent: what the outbox still holds is older, so it is buffered first. */
  private unsent(): false {
    this.outbox?.strand();
    return false;
  }

  /** Notifications queued for a link that went away, back into their plugins' offline buffers. */
  private keep(frames: Notification[]): void {
    for (const f of frames) this.plugins.get(f.plugin)?.runtime.buffer.push(f.plugin, f.method, f.params);
  }

  private startHeartbeat(socket: WebSocketLike, intervalMs: number): void {
    // An inspector that stopped answering cannot finish a closing handshake: give up on it at once.
    this.silence = watchSilence(intervalMs * Limits.heartbeatMissesAllowed, () => {
      if (this.socket !== socket) return;
      const reason = `no frames from the inspector for ${Limits.heartbeatMissesAllowed} heartbeat intervals`;
      this.socket = undefined;
      try {
        socket.close(CloseCode.heartbeatTimeout, reason);
        socket.terminate?.();
      } catch {
        // already closing
      }
      this.lost(reason);
      this.retry(reason);
    });
    const tick = () => {
      if (this.socket !== socket) return;
      this.write(socket, { type: 'heartbeat', t: Date.now() });
      this.later(tick, intervalMs);
    };
    this.later(tick, intervalMs);
  }

  private lost(reason: string): void {
    this.outbox?.strand();
    this.outbox = undefined;
    this.messenger?.close(reason);
    this.messenger = undefined;
    this.clearTimers();
    for (const plugin of this.plugins.values()) plugin.runtime.setConnected(false);
  }

  private retry(error: string): void {
    if (this.stopped) return;
    const attempt = this.current.state === 'connected' ? 0 : this.current.attempt;
    const delay = backoffDelay(
      attempt,
      this.options.reconnect?.initialDelayMs ?? 500,
      this.options.reconnect?.maxDelayMs ?? 15_000,
    );
    this.setStatus({
      state: 'waiting',
      attempt: attempt + 1,
      retryInMs: delay,
      error,
      sessionId: this.resume.get()?.sessionId,
    });
    this.later(() => void this.open(), delay);
  }

  private stopForGood(reject: Reject): void {
    this.stopped = true;
    this.setStatus({ state: 'stopped', attempt: this.current.attempt, error: `${reject.reason}: ${reject.message}` });
    console.error(`[porthole] the inspector refused this app (${reject.reason}): ${reject.message}`);
  }

  /** Drop counts for the hello; they are forgotten only once a welcome confirms the host got them. */
  private droppedCounts(): Record<string, number> | undefined {
    const dropped: Record<string, number> = {};
    for (const [id, plugin] of this.plugins) {
      if (plugin.runtime.buffer.dropped > 0) dropped[id] = plugin.runtime.buffer.dropped;
    }
    return Object.keys(dropped).length > 0 ? dropped : undefined;
  }

  private write(socket: WebSocketLike, message: Message): void {
    try {
      if (socket.readyState === OPEN) socket.send(encode(message));
    } catch {
      // closing; the close handler takes over
    }
  }

  private later(fn: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.timers = this.timers.filter((t) => t !== timer);
      fn();
    }, ms);
    (timer as { unref?: () => void }).unref?.();
    this.timers.push(timer);
  }

  private clearTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
    this.silence?.stop();
    this.silence = undefined;
  }

  private setStatus(status: AgentStatus): void {
    this.owner.setStatus(status);
  }
}
