export interface BufferedNotification {
  seq: number;
  plugin: string;
  method: string;
  params: unknown;
}

let nextSeq = 0;

/**
 * Notifications a plugin made while the inspector was unreachable. Bounded: when full, the oldest
 * entry is dropped and counted, so the host can be told how many were lost.
 */
export class OfflineBuffer {
  private entries: BufferedNotification[] = [];
  private head = 0;
  dropped = 0;

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.entries.length - this.head;
  }

  push(plugin: string, method: string, params: unknown): void {
    if (this.capacity <= 0) {
      this.dropped++;
      return;
    }
    if (this.size >= this.capacity) {
      this.head++;
      this.dropped++;
    }
    this.entries.push({ seq: nextSeq++, plugin, method, params });
    if (this.head > 1024 && this.head * 2 > this.entries.length) this.compact();
  }

  /** Removes and returns everything buffered, oldest first. */
  drain(): BufferedNotification[] {
    const out = this.entries.slice(this.head);
    this.entries = [];
    this.head = 0;
    return out;
  }

  /** Puts back entries that could not be sent, ahead of anything buffered since. */
  restore(entries: BufferedNotification[]): void {
    this.entries = [...entries, ...this.entries.slice(this.head)];
    this.head = 0;
    while (this.size > this.capacity) {
      this.head++;
      this.dropped++;
    }
    this.compact();
  }

  private compact(): void {
    this.entries = this.entries.slice(this.head);
    this.head = 0;
  }
}
