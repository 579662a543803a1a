import type { Initiator } from '../protocol.js';
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
import { installUndiciTap, type UndiciTap } from './node-undici.js';
import type { Hub } from './observed.js';

// The Node taps: http/https (node-http), undici and global fetch (node-undici), and a wrapper of
// global fetch that only reads the request body the app passed when it can do so without touching
// the app's (a string, bytes, URLSearchParams): fetch hands undici that body as a stream.

export interface Installed {
  kinds: Initiator[];
  decoder?: Decoder;
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
  if (m.dc) {
    const undici = installUndiciTap(hub, m.dc);
    kinds.push('undici');
    if (typeof globalThis.fetch === 'function') {
      wrapFetch(hub, undici);
      kinds.push('fetch');
    }
  }
  return { kinds, decoder: m.zlib && zlibDecoder(m.zlib) };
}

function wrapFetch(hub: Hub, undici: UndiciTap): void {
  if (hub.taps.has('node-fetch')) return;
  hub.taps.add('node-fetch');
  const original = globalThis.fetch;
  const fetch = function fetch(this: unknown, ...args: [RequestInfo | URL, RequestInit?]) {
    const [input, init] = args;
    if (hub.active && init?.body != null) {
      try {
        const bytes = knownBytes(init.body);
        if (bytes) {
          const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url).href;
          const method = init.method ?? (input instanceof Request ? input.method : 'GET');
          undici.noteFetchBody(method, url, bytes);
        }
      } catch {
        // the capture's problem, never the app's
      }
    }
    return original.apply(this, args);
  } as typeof globalThis.fetch;
  globalThis.fetch = fetch;
}

function knownBytes(body: BodyInit): Uint8Array | undefined {
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof URLSearchParams) return new TextEncoder().encode(body.toString());
  // Views, not copies: the tap copies what it keeps, up to the cap.
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  return undefined;
}
