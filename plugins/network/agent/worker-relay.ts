import { DEFAULT_MAX_BODY_BYTES } from '../constants.js';
import { builtin } from './node-builtins.js';
import { type Hub, type Observation, type SeenBody, type SeenRequest, type Sink, sentHeaders } from './observed.js';

// Worker threads: the preload (`node --import porthole/register`) runs in every worker too (workers
// inherit execArgv), so the taps see the worker's requests; with no agent there, a relay sink posts
// what they see to the main thread over a BroadcastChannel, where it is observed as the main
// thread's own. Times are sent on the shared wall clock (timeOrigin + performance.now()).

const CHANNEL = 'porthole.network.workers';

type Op = Exclude<keyof Observation, 'at'>;
type Post = { id: string; at: number } & ({ op: 'observe'; request: SeenRequest } | { op: Op; args: unknown[] });

interface Channel {
  postMessage(message: unknown): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  unref?(): void;
}

export function relayWorkers(hub: Hub): void {
  if (hub.taps.has('workers')) return;
  const threads = builtin<{ isMainThread: boolean; threadId: number }>('node:worker_threads');
  const Broadcast = (globalThis as { BroadcastChannel?: new (name: string) => Channel }).BroadcastChannel;
  if (!threads || !Broadcast) return;
  hub.taps.add('workers');
  const channel = new Broadcast(CHANNEL);
  channel.unref?.(); // never what keeps a thread alive
  if (threads.isMainThread) listen(hub, channel);
  else hub.add(new Relay(hub, channel, threads.threadId));
}

const now = () => performance.timeOrigin + performance.now();

class Relay implements Sink {
  readonly maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
  readonly maxMessageBytes = 64 * 1024;
  private n = 0;
  constructor(
    private readonly hub: Hub,
    private readonly channel: Channel,
    private readonly thread: number,
  ) {}

  observe(request: SeenRequest): Observation | undefined {
    // An agent of the worker's own (its code called network()) reports it instead.
    if ([...this.hub.sinks].some((s) => s !== this)) return undefined;
    const id = `${this.thread}:${++this.n}`;
    const { inject: _inject, body, t0, ...rest } = request;
    const start = t0 === undefined ? now() : performance.timeOrigin + t0;
    this.post({ id, at: start, op: 'observe', request: { ...rest, body: plain(body), startedAt: rest.startedAt } });
    const post = (op: Op, args: unknown[]) => this.post({ id, at: now(), op, args });
    return {
      sent: (headers, b) => post('sent', [headers && sentHeaders(headers), plain(b)]),
      response: (r) => post('response', [r]),
      chunk: (seen, fresh, encoded) => post('chunk', [plain(seen), fresh, encoded]),
      message: (m) => post('message', [m]),
      complete: (end) => post('complete', [{ ...end, body: plain(end.body) }]),
      fail: (error, timedOut, end) =>
        post('fail', [errorOf(error), timedOut, end && { ...end, body: plain(end.body) }]),
      mocked: (mark) => post('mocked', [mark]),
    };
  }

  private post(message: Post): void {
    try {
      this.channel.postMessage(message);
    } catch {
      // something that does not clone costs its record, never the app
    }
  }
}

function listen(hub: Hub, channel: Channel): void {
  const open = new Map<string, Observation>();
  channel.onmessage = ({ data }) => {
    try {
      const m = data as Post;
      const at = m.at - performance.timeOrigin;
      if (m.op === 'observe') {
        const obs = hub.observe({ ...m.request, t0: at });
        if (obs) open.set(m.id, obs);
        if (open.size > 10_000) open.delete(open.keys().next().value!);
        return;
      }
      const obs = open.get(m.id);
      if (!obs) return;
      const args = m.op === 'fail' ? [errorFrom(m.args[0]), ...m.args.slice(1)] : m.args;
      obs.at?.(at);
      (obs[m.op] as (...a: unknown[]) => void)(...args);
      obs.at?.(undefined);
      if (m.op === 'complete' || m.op === 'fail') open.delete(m.id);
    } catch {
      // a bad message from a worker costs its record
    }
  };
}

/** A body without what does not cross threads as is (a page's Blob is a browser's only). */
function plain(body: SeenBody | undefined): SeenBody | undefined {
  if (!body) return undefined;
  const { blob: _blob, ...rest } = body;
  return rest;
}

function errorOf(error: unknown): { name?: string; message: string; code?: string } {
  const e = error as { name?: unknown; message?: unknown; code?: unknown } | undefined;
  return {
    name: typeof e?.name === 'string' ? e.name : undefined,
    message: typeof e?.message === 'string' ? e.message : String(error),
    code: typeof e?.code === 'string' ? e.code : undefined,
  };
}

function errorFrom(e: unknown): Error {
  const { name, message, code } = (e ?? {}) as { name?: string; message?: string; code?: string };
  const error = Object.assign(new Error(message ?? 'failed in a worker thread'), code ? { code } : {});
  if (name) error.name = name;
  return error;
}
