import type { Initiator } from '../protocol.js';
import { mapFrame } from './frame-source-maps.js';
import {
  builtin,
  builtinAsync,
  isNode,
  type NodeDiagnosticsChannel,
  type NodeHttp,
  type NodeZlib,
} from './node-builtins.js';
import { type Decoder, zlibDecoder } from './node-decode.js';
import { installHttpTap } from './node-http.js';
import { installHttp2Tap } from './node-http2.js';
import { installUndiciTap } from './node-undici.js';
import type { Hub } from './observed.js';
import type { FrameMapper } from './site-frames.js';
import { installWebSocketTap } from './websocket-tap.js';
import { relayWorkers } from './worker-relay.js';

// The Node taps: http/https (node-http), http2 (node-http2), undici and global fetch (node-undici). Nothing of the
// app's is replaced: not fetch, not a dispatcher, not an agent.

export interface Installed {
  kinds: Initiator[];
  decoder?: Decoder;
  /** Call-site frames at their place in the original source, when Node maps stacks. */
  mapFrame?: FrameMapper;
}

interface Modules {
  http?: NodeHttp;
  dc?: NodeDiagnosticsChannel;
  zlib?: NodeZlib;
}

/** Installs the Node taps now; undefined when this is not Node or Node cannot give its modules synchronously. */
export function installNodeTaps(hub: Hub): Installed | undefined {
  if (!isNode) return undefined;
  const http = builtin<NodeHttp>('node:http');
  const dc = builtin<NodeDiagnosticsChannel>('node:diagnostics_channel');
  if (!http || !dc) return undefined;
  return install(hub, { http, dc, zlib: builtin<NodeZlib>('node:zlib') });
}

/** The same for Node versions without process.getBuiltinModule. */
export async function installNodeTapsAsync(hub: Hub): Promise<Installed | undefined> {
  if (!isNode) return undefined;
  const [http, dc, zlib] = await Promise.all([
    builtinAsync<NodeHttp>('node:http'),
    builtinAsync<NodeDiagnosticsChannel>('node:diagnostics_channel'),
    builtinAsync<NodeZlib>('node:zlib'),
  ]);
  return install(hub, { http, dc, zlib });
}

function install(hub: Hub, m: Modules): Installed {
  const kinds: Initiator[] = [];
  if (m.http) {
    installHttpTap(hub, m.http);
    kinds.push('http');
  }
  installHttp2Tap(hub);
  if (hub.taps.has('http2')) kinds.push('http2');
  if (m.dc) {
    installUndiciTap(hub, m.dc);
    kinds.push('undici', 'fetch');
  }
  // The ws package's sockets go through http; Node's own WebSocket (22+) is the global one.
  installWebSocketTap(hub);
  if (m.http) kinds.push('websocket');
  relayWorkers(hub);
  return { kinds, decoder: m.zlib && zlibDecoder(m.zlib), mapFrame };
}
