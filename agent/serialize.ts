import type { SerializedValue } from '../shared/serialized-value.js';
import { describeNode, isDomNode } from './dom-node.js';

export interface SerializeLimits {
  /** Nesting kept; deeper objects become `{ $: 'cut', why: 'depth' }`. */
  depth: number;
  /** Characters kept of a string. */
  maxString: number;
  /** Elements, entries or properties kept per array, map, set or object. */
  maxItems: number;
  /** About this many characters of JSON per message; past it values become `{ $: 'cut', why: 'bytes' }`. */
  maxBytes: number;
}

const UNDEFINED = { $: 'undefined' } as const;
const CIRCULAR = { $: 'circular' } as const;
const GETTER = { $: 'getter' } as const;
const toTag = Object.prototype.toString;
const getProto = Object.getPrototypeOf;
const ownProp = Object.getOwnPropertyDescriptor;
// The built-in getters, so a subclass's own `size` is not run.
const mapSize = ownProp(Map.prototype, 'size')!.get!;
const setSize = ownProp(Set.prototype, 'size')!.get!;

/**
 * Turns console arguments into tagged JSON at once (so a later change to an object does not change
 * what was logged), without running the app's code: getters are not called (`{ $: 'getter' }`, as
 * Node's inspect shows them), and what throws anyway (a proxy's trap) becomes `{ $: 'thrown' }`.
 */
export class Serializer {
  private bytes = 0;
  private readonly ancestors = new Set<object>();

  /** `special` may describe an object its own way (e.g. a React element as `<Name>`); undefined: the usual way. */
  constructor(
    private readonly limits: SerializeLimits,
    private readonly special?: (x: object) => SerializedValue | undefined,
  ) {}

  /** Starts a new message: the byte count from 0 (the same limits and `special`). */
  reset(): this {
    this.bytes = 0;
    return this;
  }

  /** Approximate JSON characters produced so far. */
  get size(): number {
    return this.bytes;
  }

  value(x: unknown, depth = 0): SerializedValue {
    switch (typeof x) {
      case 'string':
        this.bytes += Math.min(x.length, this.limits.maxString) + 3;
        return x.length > this.limits.maxString
          ? { $: 'string', v: x.slice(0, this.limits.maxString), length: x.length }
          : x;
      case 'number':
        this.bytes += 8;
        if (Number.isFinite(x) && !(x === 0 && 1 / x < 0)) return x;
        return { $: 'number', v: x === 0 ? '-0' : (String(x) as 'NaN') };
      case 'boolean':
        this.bytes += 5;
        return x;
      case 'undefined':
        this.bytes += 16;
        return UNDEFINED;
      case 'bigint':
        this.bytes += 24;
        return { $: 'bigint', v: String(x) };
      case 'symbol':
        this.bytes += 24;
        return { $: 'symbol', v: x.toString() };
      case 'function':
        this.bytes += 32;
        return { $: 'function', name: fnName(x) };
    }
    if (x === null) {
      this.bytes += 4;
      return null;
    }
    return this.object(x as object, depth);
  }

  private object(x: object, depth: number): SerializedValue {
    if (this.ancestors.has(x)) return CIRCULAR;
    if (this.bytes > this.limits.maxBytes) return { $: 'cut', why: 'bytes' };
    if (depth >= this.limits.depth) return { $: 'cut', why: 'depth', cls: className(x) };
    this.bytes += 16;
    this.ancestors.add(x);
    try {
      return this.special?.(x) ?? this.kind(x, depth + 1);
    } catch (e) {
      return { $: 'thrown', message: errorText(e) };
    } finally {
      this.ancestors.delete(x);
    }
  }

  private kind(x: object, d: number): SerializedValue {
    const max = this.limits.maxItems;
    if (Array.isArray(x)) {
      const n = Math.min(x.length, max);
      const items: SerializedValue[] = new Array(n);
      for (let i = 0; i < n; i++) {
        const desc = ownProp(x, i);
        items[i] = desc === undefined ? UNDEFINED : 'value' in desc ? this.value(desc.value, d) : GETTER;
      }
      const cls = getProto(x) === Array.prototype ? undefined : className(x);
      return cls ? { $: 'array', cls, items, length: x.length } : { $: 'array', items, length: x.length };
    }
    if (ArrayBuffer.isView(x)) {
      const view = x as unknown as ArrayLike<number | bigint> & { byteLength: number };
      const cls = className(x) ?? 'TypedArray';
      if (typeof view.length !== 'number') return { $: 'typed', cls, length: view.byteLength };
      const n = Math.min(view.length, max);
      const items: (number | string)[] = new Array(n);
      for (let i = 0; i < n; i++) {
        const v = view[i]!;
        items[i] = typeof v === 'bigint' ? String(v) : Number.isFinite(v) ? v : String(v);
      }
      this.bytes += n * 4;
      return { $: 'typed', cls, items, length: view.length };
    }
    const tag = toTag.call(x).slice(8, -1);
    switch (tag) {
      case 'ArrayBuffer':
      case 'SharedArrayBuffer':
        return { $: 'typed', cls: tag, length: (x as ArrayBuffer).byteLength };
      case 'Date': {
        const t = Date.prototype.getTime.call(x);
        return { $: 'date', v: Number.isNaN(t) ? 'Invalid Date' : new Date(t).toISOString() };
      }
      case 'RegExp':
        return { $: 'regexp', v: RegExp.prototype.toString.call(x) };
      case 'Map': {
        const entries: [SerializedValue, SerializedValue][] = [];
        for (const [k, v] of Map.prototype.entries.call(x as Map<unknown, unknown>)) {
          if (entries.length >= max) break;
          entries.push([this.value(k, d), this.value(v, d)]);
        }
        return withCls<Extract<SerializedValue, { $: 'map' }>>(
          { $: 'map', entries, size: mapSize.call(x) as number },
          x,
          Map,
        );
      }
      case 'Set': {
        const items: SerializedValue[] = [];
        for (const v of Set.prototype.values.call(x as Set<unknown>)) {
          if (items.length >= max) break;
          items.push(this.value(v, d));
        }
        return withCls<Extract<SerializedValue, { $: 'set' }>>(
          { $: 'set', items, size: setSize.call(x) as number },
          x,
          Set,
        );
      }
    }
    if (tag === 'Error' || x instanceof Error) return this.error(x as Error, d);
    if (isDomNode(x)) return { $: 'node', v: describeNode(x), nodeType: x.nodeType };
    if (x === globalThis) return { $: 'object', cls: tag === 'Object' ? 'global' : tag, props: {} };
    const cls = className(x) ?? (tag !== 'Object' ? tag : undefined);
    const { props, more } = this.props(x, d, undefined);
    const out: Extract<SerializedValue, { $: 'object' }> = { $: 'object', props };
    if (cls) out.cls = cls;
    if (more) out.more = more;
    return out;
  }

  private error(e: Error, d: number): SerializedValue {
    const data = (key: string) => {
      const desc = ownProp(e, key);
      return desc && 'value' in desc ? desc.value : undefined;
    };
    const name = safeString(() => e.name) ?? 'Error';
    const message = data('message');
    const stack = safeString(() => e.stack);
    const out: Extract<SerializedValue, { $: 'error' }> = {
      $: 'error',
      name,
      message: typeof message === 'string' ? message : '',
    };
    this.bytes += (out.message.length + (stack?.length ?? 0)) | 0;
    if (stack) out.stack = stack.length > 50_000 ? stack.slice(0, 50_000) : stack;
    const cause = ownProp(e, 'cause');
    if (cause) out.cause = 'value' in cause ? this.value(cause.value, d) : GETTER;
    const errors = data('errors');
    if (Array.isArray(errors)) out.errors = errors.slice(0, this.limits.maxItems).map((v) => this.value(v, d));
    const { props } = this.props(e, d, ERROR_OWN);
    if (Object.keys(props).length > 0) out.props = props;
    return out;
  }

  private props(x: object, d: number, skip: Set<string> | undefined) {
    const props: Record<string, SerializedValue> = Object.create(null);
    const max = this.limits.maxItems;
    const keys = Object.keys(x);
    let n = 0;
    let more = 0;
    for (const key of keys) {
      if (skip?.has(key)) continue;
      if (n >= max) {
        more++;
        continue;
      }
      const desc = ownProp(x, key);
      if (!desc) continue;
      this.bytes += key.length + 3;
      props[key] = 'value' in desc ? this.value(desc.value, d) : GETTER;
      n++;
    }
    for (const sym of Object.getOwnPropertySymbols(x)) {
      const desc = ownProp(x, sym);
      if (!desc?.enumerable) continue;
      if (n >= max) {
        more++;
        continue;
      }
      props[`[${sym.toString()}]`] = 'value' in desc ? this.value(desc.value, d) : GETTER;
      n++;
    }
    return { props, more };
  }
}

const ERROR_OWN = new Set(['stack', 'message', 'cause', 'errors']);

function withCls<T extends { cls?: string }>(out: T, x: object, base: object): T {
  const proto = getProto(x);
  if (proto !== (base as { prototype: object }).prototype) {
    const cls = className(x);
    if (cls) out.cls = cls;
  }
  return out;
}

/** The constructor's name, read from the prototype's own data property only; undefined for plain objects. */
function className(x: object): string | undefined {
  try {
    const proto = getProto(x);
    if (proto === null) return 'null prototype';
    if (proto === Object.prototype) return undefined;
    const ctor = ownProp(proto, 'constructor');
    const fn = ctor && 'value' in ctor ? ctor.value : undefined;
    return typeof fn === 'function' ? fnName(fn) || undefined : undefined;
  } catch {
    return undefined;
  }
}

function fnName(fn: unknown): string {
  const desc = ownProp(fn as object, 'name');
  return desc && typeof desc.value === 'string' ? desc.value : '';
}

function safeString(read: () => unknown): string | undefined {
  try {
    const v = read();
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

function errorText(e: unknown): string {
  return safeString(() => (e as Error).message) ?? safeString(() => String(e)) ?? 'unknown error';
}
