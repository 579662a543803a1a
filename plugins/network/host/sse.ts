// The event stream format (text/event-stream, the HTML standard's "server-sent events"), read as it
// arrives: text goes in as it came (any split), whole events come out.

export interface SseEvent {
  /** `event:`; absent means "message". */
  event?: string;
  data: string;
  /** `id:`, when the event set one. */
  id?: string;
  /** Bytes of the event's lines as they came (UTF-8), up to its blank line. */
  size: number;
}

const MAX_PENDING_CHARS = 8 * 1024 * 1024;

export class SseParser {
  private line = '';
  private sawCr = false;
  private data: string[] = [];
  private event: string | undefined;
  private id: string | undefined;
  private size = 0;
  private first = true;

  /** Feeds text; returns the events it completed. */
  push(text: string): SseEvent[] {
    const out: SseEvent[] = [];
    let i = this.sawCr && text.charCodeAt(0) === 10 ? 1 : 0; // the \n of a \r\n split between two pushes
    this.sawCr = false;
    let start = i;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.line += text.slice(start, i);
      this.endLine(out);
      if (c === 13) {
        if (i + 1 === text.length) this.sawCr = true;
        else if (text.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    if (start < text.length) {
      this.line += text.slice(start);
      if (this.line.length > MAX_PENDING_CHARS) this.line = this.line.slice(0, MAX_PENDING_CHARS);
    }
    return out;
  }

  private endLine(out: SseEvent[]): void {
    let line = this.line;
    this.line = '';
    if (this.first) {
      this.first = false;
      if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    }
    this.size += byteLength(line) + 1;
    if (line === '') {
      if (this.data.length > 0) {
        out.push({
          ...(this.event ? { event: this.event } : {}),
          data: this.data.join('\n'),
          ...(this.id !== undefined ? { id: this.id } : {}),
          size: this.size,
        });
      }
      // The last event id stays for the next events, as an EventSource keeps it.
      this.data = [];
      this.event = undefined;
      this.size = 0;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      if (this.data.length < 100_000) this.data.push(value);
    } else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
  }
}

function byteLength(text: string): number {
  return Buffer.byteLength(text);
}
