import { currentFiber, type Fiber, fiberName } from '../../../agent/react/fiber.js';
import { RequestError } from '../../../shared/protocol/request-error.js';

/** What Porthole knows of one component instance (both of its fibers). */
export interface FiberInfo {
  n: number;
  name: string;
  renders: number;
  ref: { deref(): Fiber | undefined };
}

const Weak = (globalThis as { WeakRef?: new (f: Fiber) => { deref(): Fiber | undefined } }).WeakRef;

/**
 * Ids stable per component instance: a WeakMap on the fiber and its alternate. An id names this
 * page load (`<epoch>.<n>`), so one from another session or load is refused, not misread.
 */
export class FiberIds {
  readonly epoch = Math.random().toString(36).slice(2, 5);
  private seq = 0;
  private readonly byFiber = new WeakMap<Fiber, FiberInfo>();
  private readonly byNumber = new Map<number, FiberInfo>();
  private pruneAt = 4096;

  info(f: Fiber): FiberInfo {
    let info = this.byFiber.get(f);
    if (info) return info;
    const alt = f.alternate;
    info = alt ? this.byFiber.get(alt) : undefined;
    if (!info) {
      info = { n: ++this.seq, name: fiberName(f), renders: 0, ref: Weak ? new Weak(f) : { deref: () => f } };
      this.byNumber.set(info.n, info);
      if (this.byNumber.size > this.pruneAt) this.prune();
    }
    this.byFiber.set(f, info);
    return info;
  }

  id(f: Fiber): string {
    return this.format(this.info(f));
  }

  format(info: FiberInfo): string {
    return `${this.epoch}.${info.n}`;
  }

  /** The mounted fiber an id names; throws what to do when there is none. */
  resolve(id: string): Fiber {
    const dot = id.indexOf('.');
    if (id.slice(0, dot) !== this.epoch) {
      throw new RequestError(
        'handler-error',
        `component id ${id} is from another session or page load: take a new react_tree`,
      );
    }
    const f = this.byNumber.get(Number(id.slice(dot + 1)))?.ref.deref();
    const current = f && currentFiber(f);
    if (!current)
      throw new RequestError('handler-error', `component ${id} is no longer mounted: take a new react_tree`);
    return current;
  }

  /** Drops what no longer names a mounted fiber, so the map stays about as large as the app's tree. */
  private prune(): void {
    for (const [n, info] of this.byNumber) {
      const f = info.ref.deref();
      if (!f || !currentFiber(f)) this.byNumber.delete(n);
    }
    this.pruneAt = Math.max(4096, this.byNumber.size * 2);
  }
}
