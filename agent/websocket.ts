// What the network plugin's taps and the link share (they meet here); the link's own socket code is
// in link-socket.ts, which only the link loads.

/** The slice of the WHATWG WebSocket API the agent uses; browsers, React Native, Node 22+ and `ws` all have it. */
export interface WebSocketLike {
  readonly readyState: number;
  /** Bytes handed to send() and not yet written to the network (browsers and ws have it). */
  readonly bufferedAmount?: number;
  /** Text frames, and binary ones (a Uint8Array) only to an inspector that takes binary notifications. */
  send(data: string | Uint8Array | Blob): void;
  /** Writes one binary message from its parts without joining them (Node with ws: as fragments). */
  sendParts?(parts: readonly Uint8Array[]): void;
  close(code?: number, reason?: string): void;
  /** Drops the connection without a closing handshake (`ws` in Node has it; browsers do not). */
  terminate?(): void;
  addEventListener(type: 'open', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'close', listener: (event: { code: number; reason: string }) => void): void;
  addEventListener(type: 'error', listener: (event: unknown) => void): void;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

export const OPEN = 1;

const OWN_LINK = Symbol.for('porthole.ownLink');

/**
 * Makes the agent's own link to the inspector: while `make` runs, the network plugin's WebSocket
 * taps know the socket being made is Porthole's own and leave it alone (every constructor makes its
 * handshake request synchronously).
 */
export function makeOwnLink<T>(make: () => T): T {
  const g = globalThis as { [OWN_LINK]?: number };
  g[OWN_LINK] = (g[OWN_LINK] ?? 0) + 1;
  try {
    return make();
  } finally {
    g[OWN_LINK]! -= 1;
  }
}

/** True while the agent makes its own link (makeOwnLink). */
export const makingOwnLink = (): boolean => ((globalThis as { [OWN_LINK]?: number })[OWN_LINK] ?? 0) > 0;
