import type { Hub, Observation } from './observed.js';

// EventSource, observed: the global constructor becomes a Proxy that makes the very same object
// (as the WebSocket tap does), followed with listeners of its own. A page's EventSource shows its
// events only by type, so the tap listens to "message" and to every type the app listens to (an
// event of a type nobody listens to is not seen: the browser dispatches it to no one); close() on
// the prototype ends the transaction, as the app's close does the connection.

interface Source extends EventTarget {
  readonly url: string;
  readonly readyState: number;
  close(): void;
}

type Constructor = new (...args: unknown[]) => Source;

const CLOSED = 2;
/** Types the tap listens to on its own; any other is added when the app listens to it. */
const OWN = new Set(['open', 'error', 'message']);

interface Followed {
  obs: Observation;
  types: Set<string>;
  listener: (event: Event) => void;
  done: boolean;
}

export function installEventSourceTap(hub: Hub): boolean {
  const g = globalThis as { EventSource?: Constructor };
  const Native = g.EventSource;
  if (typeof Native !== 'function') return false;
  if (hub.taps.has('eventsource')) return true;
  hub.taps.add('eventsource');
  const followed = new WeakMap<object, Followed>();
  const proto = Native.prototype as Source;
  const addEventListener = proto.addEventListener;
  // Own properties of EventSource.prototype: EventTarget's stay as they are for everything else.
  Object.defineProperty(proto, 'addEventListener', {
    value: function addEventListener_(this: Source, ...args: Parameters<EventTarget['addEventListener']>) {
      const result = addEventListener.apply(this, args);
      const f = followed.get(this);
      const type = String(args[0]);
      if (f && !f.done && !OWN.has(type) && !f.types.has(type)) {
        f.types.add(type);
        addEventListener.call(this, type, f.listener);
      }
      return result;
    },
    configurable: true,
    writable: true,
  });
  const close = proto.close;
  proto.close = function close_(this: Source) {
    const result = close.call(this);
    const f = followed.get(this);
    if (f && !f.done) {
      f.done = true;
      f.obs.complete({});
    }
    return result;
  };
  const Tapped: Constructor = new Proxy(Native, {
    construct(target, args, newTarget): object {
      const source = Reflect.construct(target, args, newTarget) as Source;
      if (hub.active) {
        try {
          follow(hub, source, followed, addEventListener);
        } catch {
          // the capture's problem, never the app's
        }
      }
      return source;
    },
  });
  g.EventSource = Tapped;
  try {
    Object.defineProperty(proto, 'constructor', { value: Tapped, writable: true, configurable: true });
  } catch {
    // a frozen prototype keeps its constructor
  }
  return true;
}

function follow(
  hub: Hub,
  source: Source,
  followed: WeakMap<object, Followed>,
  addEventListener: EventTarget['addEventListener'],
): void {
  const obs = hub.observe({
    initiator: 'eventsource',
    method: 'GET',
    url: source.url,
    headers: [['accept', 'text/event-stream']],
  });
  if (!obs) return;
  let opened = false;
  const f: Followed = {
    obs,
    types: new Set(),
    done: false,
    listener: (event) => {
      const e = event as MessageEvent;
      obs.message({
        direction: 'received',
        time: Date.now(),
        data: String(e.data),
        ...(e.type !== 'message' ? { event: e.type } : {}),
        ...(e.lastEventId ? { eventId: e.lastEventId } : {}),
      });
    },
  };
  followed.set(source, f);
  addEventListener.call(source, 'open', () => {
    if (opened) return; // a reconnection: the same transaction goes on
    opened = true;
    obs.response({ status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']] });
  });
  addEventListener.call(source, 'message', f.listener);
  addEventListener.call(source, 'error', () => {
    // CONNECTING after an error: the browser reconnects by itself. CLOSED: it gave up.
    if (f.done || source.readyState !== CLOSED) return;
    f.done = true;
    const why = opened
      ? 'the event stream broke off and the browser gave up reconnecting'
      : 'the event stream could not be opened (a status other than 200, or not text/event-stream; a page is not told which)';
    obs.fail(new Error(why));
  });
}
