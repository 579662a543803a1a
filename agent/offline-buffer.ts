import { estimateBytes } from '../shared/estimate-bytes.js';
import type { Attached } from '../shared/protocol/attachment.js';

export interface BufferedNotification {
  seq: number;
  plugin: string;
  method: string;
  params: unknown;
  /** Bytes that go with it (a large body), sent as they are once the link is up. */
  attached?: Attached;
  /** Estimated bytes, counted against the buffer's byte bound. */
  bytes: number;
}

let nextSeq = 0;

export const DEFAULT_OFFLINE_BUFFER_BYTES = 8 * 1024 * 1024;

/**
 * Notifications a plugin made while the inspector was unreachable. Bounded in count and in bytes:
 * past either the oldest entries are dropped and counted, so the host can be told how many were lost.
 */
export class OfflineBuffer {
  private entries: BufferedNotification[] = [];
  private head = 0;
  private bytes = 0;
  dropped = 0;
  droppedBytes = 0;

  constructor(
    private readonly capacity: number,
    private readonly maxBytes = DEFAULT_OFFLINE_BUFFER_BYTES,
  ) {}

  get size(): number {
    return this.entries.length - this.head;
  }

  /** Estimated bytes held now. */
  get heldBytes(): number {
    return this.bytes;
  }

  push(plugin: string, method: string, params: unknown, attached?: Attached): void {
    const bytes = estimateBytes(params) + plugin.length + method.length + (attached?.size ?? 0);
    if (this.capacity <= 0 || bytes > this.maxBytes) {
      this.dropped++;
      this.droppedBytes += bytes;
      return;
    }
    this.entries.push({ seq: nextSeq++, plugin, method, params, attached, bytes });
    this.bytes += bytes;
    this.trim();
    if (this.head > 1024 && this.head * 2 > this.entries.length) this.compact();
  }

  /** Removes and returns everything buffered, oldest first. */
  drain(): BufferedNotification[] {
    const out = this.entries.slice(this.head);
    this.entries = [];
    this.head = 0;
    this.bytes = 0;
    return out;
  }

  /** Puts back entries that could not be sent, ahead of anything buffered since. */
  restore(entries: BufferedNotification[]): void {
    this.entries = [...entries, ...this.entries.slice(this.head)];
    this.head = 0;
    this.bytes = this.entries.reduce((n, e) => n + e.bytes, 0);
    this.trim();
    this.compact();
  }

  private trim(): void {
    while (this.size > this.capacity || this.bytes > this.maxBytes) {
      const oldest = this.entries[this.head++]!;
      this.bytes -= oldest.bytes;
      this.dropped++;
      this.droppedBytes += oldest.bytes;
    }
  }

  private compact(): void {
    this.entries = this.entries.slice(this.head);
    this.head = 0;
  }
}
