import type { HubHolder, Observation, SeenRequest, Sink } from './observed.js';

// What the preload (`porthole/register`) sees before the app's network() joins: kept, then handed to
// that agent. Only the preload imports it, so browsers and React Native do not carry it.

type Call = { [K in keyof Observation]-?: [K, Parameters<NonNullable<Observation[K]>>, number] }[Exclude<
  keyof Observation,
  'at'
>];

/** An observation made before any agent was there: its calls, kept to be replayed. */
class Held implements Observation {
  private readonly calls: Call[] = [];
  private target: Observation | undefined;
  constructor(readonly request: SeenRequest) {}
  private call(c: Call): void {
    if (!this.target) {
      // A socket's messages and a stream's chunks are kept only so far before an agent joins.
      if (this.calls.length >= MAX_HELD_CALLS && (c[0] === 'message' || c[0] === 'chunk')) return;
      this.calls.push(c);
      return;
    }
    (this.target[c[0]] as (...a: unknown[]) => void)(...c[1]);
  }
  sent(...a: Parameters<Observation['sent']>) {
    this.call(['sent', a, performance.now()]);
  }
  response(...a: Parameters<Observation['response']>) {
    this.call(['response', a, performance.now()]);
  }
  chunk(...a: Parameters<Observation['chunk']>) {
    this.call(['chunk', a, performance.now()]);
  }
  message(...a: Parameters<Observation['message']>) {
    this.call(['message', a, performance.now()]);
  }
  complete(...a: Parameters<Observation['complete']>) {
    this.call(['complete', a, performance.now()]);
  }
  fail(...a: Parameters<Observation['fail']>) {
    this.call(['fail', a, performance.now()]);
  }
  mocked(...a: Parameters<Observation['mocked']>) {
    this.call(['mocked', a, performance.now()]);
  }
  replayTo(sink: Sink): void {
    const target = sink.observe(this.request);
    if (!target) return;
    for (const [name, args, time] of this.calls.splice(0)) {
      target.at?.(time);
      (target[name] as (...a: unknown[]) => void)(...args);
    }
    target.at?.(undefined);
    this.target = target;
  }
}

const MAX_HELD_CALLS = 1000;

export class Holder implements HubHolder {
  readonly maxMessageBytes = 64 * 1024;
  private readonly held: Held[] = [];
  constructor(
    readonly maxBodyBytes: number,
    private readonly maxRequests: number,
  ) {}
  observe(request: SeenRequest): Observation {
    if (this.held.length >= this.maxRequests) this.held.shift();
    const held = new Held({
      ...request,
      t0: request.t0 ?? performance.now(),
      startedAt: request.startedAt ?? Date.now(),
    });
    this.held.push(held);
    return held;
  }
  handOver(sink: Sink): void {
    for (const held of this.held.splice(0)) held.replayTo(sink);
  }
}
