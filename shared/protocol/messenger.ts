import type { Attached } from './attachment.js';
import { boundMessage, FrameLimitError } from './frame.js';
import { Limits } from './limits.js';
import type { ProtocolError, SessionFrame } from './messages.js';
import { RequestError } from './request-error.js';

export { RequestError };

/**
 * A request no plugin sees: each side answers it at once, so its reply comes after everything that
 * side sent before it (an agent flushes its queued notifications before any reply). A barrier.
 */
export const SYNC_METHOD = '$sync';

export interface RequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface IncomingRequest {
  plugin: string;
  method: string;
  params: unknown;
  signal: AbortSignal;
}

export interface MessengerOptions {
  /** Writes one frame to the link. Throws when the link cannot take it. */
  /** `attached`: bytes that go with a notification (attachment.ts); a sender without binary frames inlines them. */
  send(frame: SessionFrame, attached?: Attached): void;
  /** Plugins both sides agreed on; requests and notifications for others fail fast. */
  isPluginActive(plugin: string): boolean;
  /** Answers a request from the peer; throw `RequestError('no-handler', …)` when nothing handles it. */
  onRequest(request: IncomingRequest): Promise<unknown> | unknown;
  /** Handles a notification; a throw is answered to the peer as an invalid-message protocol error. */
  onNotification(plugin: string, method: string, params: unknown): void;
  /** A frame from the peer that this side refused. */
  onProtocolError?(error: ProtocolError): void;
  defaultTimeoutMs?: number;
  maxInFlight?: number;
  /** Correlation-id prefix, so ids from the two ends never look alike in a log. */
  idPrefix?: string;
}

interface Pending {
  plugin: string;
  method: string;
  resolve(value: unknown): void;
  reject(error: RequestError): void;
  cleanup(): void;
}

const RECENTLY_EXPIRED = 256;

/**
 * The request/reply half of the wire protocol, symmetric for the inspector and the agent:
 * correlation ids, per-call timeouts, a cap on requests in flight, cancellation, and fast,
 * distinct failures. It knows nothing about sockets: `send` and `receive` connect it to one.
 */
export class Messenger {
  private readonly pending = new Map<string, Pending>();
  private readonly handling = new Map<string, AbortController>();
  private readonly expired = new Set<string>();
  private nextId = 1;
  private gone: string | undefined;

  constructor(private readonly options: MessengerOptions) {}

  get inFlight(): number {
    return this.pending.size;
  }

  request(plugin: string, method: string, params?: unknown, options: RequestOptions = {}): Promise<unknown> {
    if (this.gone !== undefined) return Promise.reject(new RequestError('peer-gone', this.gone));
    if (!this.options.isPluginActive(plugin)) {
      return Promise.reject(new RequestError('plugin-not-active', `plugin "${plugin}" is not active on the peer`));
    }
    const max = this.options.maxInFlight ?? Limits.maxRequestsInFlight;
    if (this.pending.size >= max) {
      return Promise.reject(
        new RequestError(
          'too-many-requests',
          `${max} requests are already waiting for replies; retry when some finish`,
        ),
      );
    }
    if (options.signal?.aborted) return Promise.reject(new RequestError('cancelled', 'the request was cancelled'));

    const id = `${this.options.idPrefix ?? ''}${this.nextId++}`;
    const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs ?? Limits.requestTimeoutMs;
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settle(id)?.reject(new RequestError('timeout', `no reply to ${plugin}.${method} within ${timeoutMs} ms`));
        this.rememberExpired(id);
      }, timeoutMs);
      const onAbort = () => {
        if (!this.settle(id)) return;
        this.rememberExpired(id);
        this.trySend({ type: 'cancel', id });
        reject(new RequestError('cancelled', `${plugin}.${method} was cancelled`));
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        plugin,
        method,
        resolve,
        reject,
        cleanup: () => {
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
        },
      });
      try {
        this.options.send({ type: 'request', id, plugin, method, params, timeoutMs });
      } catch (e) {
        this.settle(id)?.reject(sendFailure(e));
      }
    });
  }

  notify(plugin: string, method: string, params?: unknown, attached?: Attached): void {
    if (this.gone !== undefined) throw new RequestError('peer-gone', this.gone);
    if (!this.options.isPluginActive(plugin)) {
      throw new RequestError('plugin-not-active', `plugin "${plugin}" is not active on the peer`);
    }
    this.options.send({ type: 'notification', plugin, method, params }, attached);
  }

  /** Feeds one decoded frame from the peer. Heartbeats and protocol errors are the caller's business. */
  receive(frame: SessionFrame): void {
    switch (frame.type) {
      case 'reply-ok':
      case 'reply-error':
        return this.onReply(frame);
      case 'request':
        void this.onRequest(frame);
        return;
      case 'notification':
        if (!this.options.isPluginActive(frame.plugin)) {
          return this.refuse('unexpected-message', `notification for inactive plugin "${frame.plugin}"`);
        }
        try {
          this.options.onNotification(frame.plugin, frame.method, frame.params);
        } catch (e) {
          this.refuse('invalid-message', e instanceof Error ? e.message : String(e));
        }
        return;
      case 'batch':
        for (const notification of frame.frames) this.receive(notification);
        return;
      case 'cancel':
        this.handling.get(frame.id)?.abort();
        return;
      default:
        return;
    }
  }

  /** The link is gone: every waiting request fails now with "peer-gone", not after its timeout. */
  close(reason: string): void {
    this.gone = reason;
    for (const id of [...this.pending.keys()]) {
      this.settle(id)?.reject(new RequestError('peer-gone', reason));
    }
    for (const controller of this.handling.values()) controller.abort();
    this.handling.clear();
  }

  private onReply(frame: Extract<SessionFrame, { type: 'reply-ok' | 'reply-error' }>): void {
    const pending = this.settle(frame.id);
    if (!pending) {
      if (this.expired.delete(frame.id)) return; // a late reply to a request that already timed out
      return this.refuse('unknown-correlation-id', `no request is waiting for id "${frame.id}"`, frame.id);
    }
    if (frame.type === 'reply-ok') pending.resolve(frame.result);
    else pending.reject(new RequestError(frame.error.code, boundMessage(frame.error.message), frame.error.data));
  }

  private async onRequest(frame: Extract<SessionFrame, { type: 'request' }>): Promise<void> {
    const { id, plugin, method } = frame;
    if (this.handling.has(id)) {
      return this.refuse('unexpected-message', `request id "${id}" is already being handled`, id);
    }
    if (!this.options.isPluginActive(plugin)) {
      return this.reply(id, new RequestError('plugin-not-active', `plugin "${plugin}" is not active here`));
    }
    if (method === SYNC_METHOD) return this.reply(id, undefined, null);
    const controller = new AbortController();
    this.handling.set(id, controller);
    try {
      const result = await this.options.onRequest({ plugin, method, params: frame.params, signal: controller.signal });
      if (!controller.signal.aborted) this.reply(id, undefined, result);
    } catch (e) {
      if (!controller.signal.aborted) this.reply(id, toRequestError(e));
    } finally {
      this.handling.delete(id);
    }
  }

  private reply(id: string, error?: RequestError, result?: unknown): void {
    if (error) {
      const failure = { code: error.code, message: boundMessage(error.message) };
      // Error data the frame cannot carry is left out rather than losing the reply.
      if (
        error.data === undefined ||
        !this.trySend({ type: 'reply-error', id, error: { ...failure, data: error.data } })
      )
        this.trySend({ type: 'reply-error', id, error: failure });
      return;
    }
    try {
      this.options.send({ type: 'reply-ok', id, result });
    } catch (e) {
      const { code, message } = sendFailure(e);
      this.trySend({ type: 'reply-error', id, error: { code, message: boundMessage(message) } });
    }
  }

  private settle(id: string): Pending | undefined {
    const pending = this.pending.get(id);
    if (!pending) return undefined;
    this.pending.delete(id);
    pending.cleanup();
    return pending;
  }

  private rememberExpired(id: string): void {
    this.expired.add(id);
    if (this.expired.size > RECENTLY_EXPIRED) {
      const oldest = this.expired.values().next().value;
      if (oldest !== undefined) this.expired.delete(oldest);
    }
  }

  private refuse(code: ProtocolError['code'], message: string, id?: string): void {
    const error: ProtocolError = {
      type: 'protocol-error',
      code,
      message: boundMessage(message),
      ...(id ? { id } : {}),
    };
    // Answer first: reporting it may close the link (the 50th error), and the peer should still learn why.
    this.trySend(error);
    this.options.onProtocolError?.(error);
  }

  /** Sends unless the link is closing (the peer learns from the close itself) or the frame is over a limit. */
  private trySend(frame: SessionFrame): boolean {
    try {
      this.options.send(frame);
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * Resolves once the peer has sent everything it sent before the reply, or the wait ended; never
 * rejects. Answers the peer-gone error when the link went away meanwhile. A function, not a method
 * of Messenger: only the inspector waits so, and agent bundles leave it out.
 */
export async function syncWith(
  messenger: Messenger,
  plugin: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<RequestError | undefined> {
  try {
    await messenger.request(plugin, SYNC_METHOD, undefined, { timeoutMs, signal });
  } catch (e) {
    if (e instanceof RequestError && e.code === 'peer-gone') return e;
  }
  return undefined;
}

export function toRequestError(e: unknown): RequestError {
  if (e instanceof RequestError) return e;
  if (e instanceof FrameLimitError) return new RequestError('frame-too-large', e.message);
  return new RequestError('handler-error', e instanceof Error ? e.message : String(e));
}

function sendFailure(e: unknown): RequestError {
  if (e instanceof FrameLimitError) return new RequestError('frame-too-large', e.message);
  return new RequestError('peer-gone', `could not send: ${e instanceof Error ? e.message : String(e)}`);
}
