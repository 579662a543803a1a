import {
  type BridgeEvent,
  type BridgeMethod,
  type BridgeParams,
  type BridgeResult,
  bridgeEvents,
  bridgeRequests,
  type ClientFrame,
  isBridgeEvent,
  ServerFrameSchema,
} from '../../../shared/bridge.js';
import { describeIssues } from '../../../shared/zod-issues.js';

export type ConnectionState = 'connecting' | 'open' | 'closed';

/** Carries frames to and from the core: the WebSocket (headless) or the Electron preload. */
export interface Transport {
  send(frame: ClientFrame): void;
  /** `frame` is untrusted until the client parses it. */
  onFrame(listener: (frame: unknown) => void): void;
  /** `open` again after `closed` means a new connection: the window reloads its state. */
  onState(listener: (state: ConnectionState, detail?: string) => void): void;
  close(): void;
}

/** A request the core refused or could not answer; `code` is one of the bridge's error codes. */
export class BridgeRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeRequestError';
  }
}

interface Pending {
  method: BridgeMethod;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** The window's end of the bridge: typed requests with validated answers, and the core's events in batches. */
export class BridgeClient {
  private readonly pending = new Map<string, Pending>();
  private readonly eventListeners = new Set<(events: BridgeEvent[]) => void>();
  private readonly stateListeners = new Set<(state: ConnectionState, detail?: string) => void>();
  private nextId = 1;
  state: ConnectionState = 'connecting';

  constructor(private readonly transport: Transport) {
    transport.onFrame((frame) => this.receive(frame));
    transport.onState((state, detail) => {
      this.state = state;
      if (state === 'closed') this.failPending(detail ?? 'the connection to the inspector was lost');
      for (const listener of this.stateListeners) listener(state, detail);
    });
  }

  request<M extends BridgeMethod>(method: M, params: BridgeParams<M>): Promise<BridgeResult<M>> {
    const id = `w${this.nextId++}`;
    return new Promise((resolve, reject) => {
      if (this.state !== 'open') {
        reject(new BridgeRequestError('unavailable', 'not connected to the inspector; waiting to reconnect'));
        return;
      }
      this.pending.set(id, { method, resolve: resolve as (v: unknown) => void, reject });
      try {
        this.transport.send({ type: 'request', id, method, params });
      } catch (e) {
        this.pending.delete(id);
        reject(new BridgeRequestError('unavailable', (e as Error).message));
      }
    });
  }

  /** Every batch of events the core pushes, in order; returns an unsubscribe function. */
  onEvents(listener: (events: BridgeEvent[]) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onState(listener: (state: ConnectionState, detail?: string) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  close(): void {
    this.transport.close();
  }

  private receive(raw: unknown): void {
    const parsed = ServerFrameSchema.safeParse(raw);
    if (!parsed.success) {
      console.error('[porthole] ignored a frame from the core:', describeIssues(parsed.error));
      return;
    }
    const frame = parsed.data;
    if (frame.type === 'frame-error') {
      console.error('[porthole] the core could not read a frame:', frame.message);
    } else if (frame.type === 'reply') {
      const pending = this.pending.get(frame.id);
      if (!pending) return;
      this.pending.delete(frame.id);
      if (!frame.ok) return pending.reject(new BridgeRequestError(frame.error.code, frame.error.message));
      const result = bridgeRequests[pending.method].result.safeParse(frame.result);
      if (result.success) pending.resolve(result.data);
      else
        pending.reject(
          new BridgeRequestError(
            'invalid-reply',
            `invalid reply to ${pending.method}: ${describeIssues(result.error)}`,
          ),
        );
    } else {
      const events: BridgeEvent[] = [];
      for (const { event, data } of frame.events) {
        if (!isBridgeEvent(event)) continue;
        const checked = bridgeEvents[event].safeParse(data);
        if (checked.success) events.push({ event, data: checked.data } as BridgeEvent);
        else console.error(`[porthole] ignored an invalid ${event} event:`, describeIssues(checked.error));
      }
      if (events.length === 0) return;
      for (const listener of this.eventListeners) {
        try {
          listener(events);
        } catch (e) {
          console.error('[porthole] an event listener failed:', e);
        }
      }
    }
  }

  private failPending(message: string): void {
    for (const [id, pending] of this.pending) {
      this.pending.delete(id);
      pending.reject(new BridgeRequestError('unavailable', message));
    }
  }
}
