/**
 * The entries waiting to be sent (store, seq, action, time) in a ring allocated once at its full
 * size: in a burst nothing grows, so the app's collector has no array to copy and copy again, and
 * the times and seqs, in typed arrays, are no objects at all. Full, the oldest entry makes room.
 * The newest entry can stand for the actions after it too (`join`: a run of one type), counted in
 * a typed array: a run that grows is no object either.
 */
export class Waiting<S> {
  private stores: (S | undefined)[] = [];
  private actions: unknown[] = [];
  private seqs = new Float64Array(0);
  private times = new Float64Array(0);
  /** Actions an entry stands for after its own (a run's). */
  private more = new Float64Array(0);
  private head = 0;
  count = 0;
  /** Entries ever taken or dropped (the head's number), and those whose action was shrunk. */
  private first = 0;
  private shrunk = 0;

  /**
   * `shrink` makes an action small (its type) once `whole` newer entries wait behind it; the ring
   * is allocated at `capacity` when the first entry comes.
   */
  constructor(
    private readonly shrink: (action: unknown) => unknown,
    private readonly whole: number,
    public capacity: number,
  ) {}

  get size(): number {
    return this.stores.length;
  }

  /** Actions the entry dropped by the last push stood for. */
  droppedActions = 0;

  /** Adds an entry; when the ring was full, returns the store of the entry dropped (see droppedActions). */
  push(store: S, seq: number, action: unknown, time: number): S | undefined {
    let cap = this.stores.length;
    if (this.count === cap && cap < this.capacity) {
      this.resize(this.capacity, () => {});
      cap = this.capacity;
    }
    let i = this.head + this.count;
    if (i >= cap) i -= cap;
    let dropped: S | undefined;
    if (this.count === cap) {
      dropped = this.stores[i];
      this.droppedActions = 1 + this.more[i]!;
      this.head = i + 1 === cap ? 0 : i + 1;
      this.first++;
    } else this.count++;
    this.stores[i] = store;
    this.actions[i] = action;
    this.seqs[i] = seq;
    this.times[i] = time;
    this.more[i] = 0;
    if (this.count > this.whole && (this.first + this.count) % this.whole === 0) this.shrinkOld();
    return dropped;
  }

  /** The newest entry stands for one action more, unless it stands for `max` already or none waits. */
  join(max: number): boolean {
    if (this.count === 0) return false;
    let i = this.head + this.count - 1;
    if (i >= this.stores.length) i -= this.stores.length;
    if (this.more[i]! + 1 >= max) return false;
    this.more[i]!++;
    return true;
  }

  /** Takes up to `max` entries, oldest first, while `fn` takes them (returns true). */
  take(max: number, fn: (store: S, seq: number, action: unknown, time: number, more: number) => boolean): void {
    const cap = this.stores.length;
    for (let n = 0; n < max && this.count > 0; n++) {
      const i = this.head;
      if (!fn(this.stores[i]!, this.seqs[i]!, this.actions[i], this.times[i]!, this.more[i]!)) return;
      this.stores[i] = undefined;
      this.actions[i] = undefined;
      this.head = i + 1 === cap ? 0 : i + 1;
      this.first++;
      this.count--;
    }
  }

  private shrinkOld(): void {
    const cap = this.stores.length;
    const end = this.first + this.count - this.whole;
    for (let k = Math.max(this.first, this.shrunk); k < end; k++) {
      const i = (this.head + (k - this.first)) % cap;
      this.actions[i] = this.shrink(this.actions[i]);
    }
    this.shrunk = Math.max(this.shrunk, end);
  }

  /** Makes the ring hold `size` entries; the oldest that no longer fit go to `dropped`. */
  resize(size: number, dropped: (store: S, actions: number) => void): void {
    this.capacity = size;
    const keep = Math.min(this.count, size);
    const skip = this.count - keep;
    const stores: (S | undefined)[] = new Array(size).fill(undefined);
    const actions: unknown[] = new Array(size).fill(undefined);
    const seqs = new Float64Array(size);
    const times = new Float64Array(size);
    const more = new Float64Array(size);
    for (let n = 0; n < keep; n++) {
      const i = (this.head + skip + n) % this.stores.length;
      stores[n] = this.stores[i];
      actions[n] = this.actions[i];
      seqs[n] = this.seqs[i]!;
      times[n] = this.times[i]!;
      more[n] = this.more[i]!;
    }
    for (let n = 0; n < skip; n++) {
      const i = (this.head + n) % this.stores.length;
      dropped(this.stores[i]!, 1 + this.more[i]!);
    }
    this.stores = stores;
    this.actions = actions;
    this.seqs = seqs;
    this.times = times;
    this.more = more;
    this.head = 0;
    this.count = keep;
    this.first += skip;
  }
}
