import { nodeImport } from '../../../agent/node-import.js';
// Node's built-in modules, reached at run time so that agent code has no `node:*` import (it also
// runs in browsers and React Native) and capture installs synchronously where the runtime allows.
// The types are the few members the taps use.

export interface NodeEmitter {
  emit(event: string | symbol, ...args: unknown[]): boolean;
}

export interface NodeSocket extends NodeEmitter {
  remoteAddress?: string;
  remotePort?: number;
  localPort?: number;
}

export interface NodeIncoming extends NodeEmitter {
  statusCode?: number;
  statusMessage?: string;
  httpVersion?: string;
  rawHeaders: string[];
  complete: boolean;
  push(chunk: unknown, encoding?: string): boolean;
}

export interface NodeClientRequest extends NodeEmitter {
  method: string;
  path: string;
  protocol?: string;
  host?: string;
  socket?: NodeSocket | null;
  _header?: string | null;
  getHeader(name: string): unknown;
  getRawHeaderNames(): string[];
  write(...args: unknown[]): boolean;
  end(...args: unknown[]): unknown;
  onSocket?(...args: unknown[]): unknown;
}

export interface NodeHttp {
  ClientRequest: { prototype: NodeClientRequest };
}

export interface NodeChannel {
  subscribe(listener: (message: unknown, name: string | symbol) => void): void;
  unsubscribe(listener: (message: unknown, name: string | symbol) => void): boolean;
}

export interface NodeDiagnosticsChannel {
  channel(name: string): NodeChannel;
}

export interface NodeZlibStream {
  on(event: string, listener: (arg: never) => void): unknown;
  end(chunk: Uint8Array): unknown;
  destroy(): unknown;
}

export interface NodeZlib {
  createGunzip(options?: object): NodeZlibStream;
  createInflate(options?: object): NodeZlibStream;
  createInflateRaw(options?: object): NodeZlibStream;
  createBrotliDecompress(options?: object): NodeZlibStream;
  /** Node 22.15+ and 23.8+. */
  createZstdDecompress?(options?: object): NodeZlibStream;
  constants: Record<string, number>;
}

export interface NodeBuffer {
  from(
    bytes: Uint8Array | ArrayBuffer | string,
    encodingOrOffset?: string | number,
    length?: number,
  ): Uint8Array & {
    toString(encoding?: string): string;
  };
  byteLength(text: string, encoding?: string): number;
}

interface NodeProcess {
  versions?: { node?: string };
  getBuiltinModule?(name: string): unknown;
}

const proc = (globalThis as { process?: NodeProcess }).process;

/** True in Node (and runtimes that pose as it) without a DOM: where the Node taps apply. */
export const isNode =
  !!proc?.versions?.node && (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest === undefined;

/** A built-in module, synchronously (Node 20.16+); undefined where the runtime has no such call. */
export function builtin<T>(name: string): T | undefined {
  try {
    return proc?.getBuiltinModule?.(name) as T | undefined;
  } catch {
    return undefined;
  }
}

/** The same module the slow way, for Node versions without process.getBuiltinModule. */
export async function builtinAsync<T>(name: string): Promise<T | undefined> {
  const now = builtin<T>(name);
  if (now) return now;
  try {
    const m = await nodeImport<{ default?: T }>(name);
    return (m.default ?? m) as T;
  } catch {
    return undefined;
  }
}

export function nodeBuffer(): NodeBuffer | undefined {
  return (globalThis as { Buffer?: NodeBuffer }).Buffer;
}
