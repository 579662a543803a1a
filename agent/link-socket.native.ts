import { concatBytes } from '../shared/bytes.js';
import type * as Ws from './link-socket.js';
import type { WebSocketConstructor } from './websocket.js';

// link-socket.ts in React Native's tree (scripts/build-agent-package.js puts it in place): React
// Native's own WebSocket, no `ws` package, no Blob messages.

export const resolveWebSocket: typeof Ws.resolveWebSocket = async (given) => {
  const native = given ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (!native) throw new Error('porthole: no WebSocket here; pass connect({ WebSocket })');
  return native;
};

export const sendBinary: typeof Ws.sendBinary = (socket, parts) => socket.send(concatBytes(parts));
