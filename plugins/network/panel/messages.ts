import type { Message } from '../protocol.js';

// The Messages tab's model, as DevTools' WebSocket Messages: the messages of one connection kept in
// the window (appended as they come), a direction choice and a filter (text or /regex/), applied
// here so that typing is instant. Pure, so it is tested without a browser.

/** The most messages the tab keeps for one connection (the inspector keeps 10,000 per connection). */
export const MAX_SHOWN = 10_000;

export interface MessageFilter {
  direction: 'all' | 'sent' | 'received';
  /** Free text (case-insensitive) or /regex/flags. */
  text: string;
}

export interface Filtered {
  rows: Message[];
  /** The filter's text is a regex that does not compile: what is wrong with it. */
  error?: string;
}

/** What `text` looks for in a message: its data, its event name, its socket.io event. */
export function filterMessages(messages: readonly Message[], filter: MessageFilter): Filtered {
  let test: ((s: string) => boolean) | undefined;
  let error: string | undefined;
  const text = filter.text.trim();
  const regex = /^\/(.+)\/([a-z]*)$/.exec(text);
  if (regex) {
    try {
      const re = new RegExp(regex[1]!, regex[2]!.replace(/[gy]/g, '').includes('i') ? regex[2] : `${regex[2]}i`);
      test = (s) => re.test(s);
    } catch (e) {
      error = `${text} is not a valid regular expression: ${(e as Error).message}`;
    }
  } else if (text) {
    const needle = text.toLowerCase();
    test = (s) => s.toLowerCase().includes(needle);
  }
  const rows = messages.filter(
    (m) =>
      (filter.direction === 'all' || m.direction === filter.direction) &&
      (!test ||
        test(m.data) ||
        (m.event !== undefined && test(m.event)) ||
        (!!m.socketio?.event && test(m.socketio.event))),
  );
  return { rows, error };
}

/** Appends a page to what the tab holds, in order, without repeats; the oldest go past MAX_SHOWN. */
export function appendMessages(held: readonly Message[], page: readonly Message[]): Message[] {
  const last = held.at(-1)?.n ?? -1;
  const fresh = page.filter((m) => m.n > last);
  if (fresh.length === 0) return held as Message[];
  const all = [...held, ...fresh];
  return all.length > MAX_SHOWN ? all.slice(all.length - MAX_SHOWN) : all;
}

/** One line for the table: a socket.io event as `event name [args]`, JSON compact, binary said. */
export function messagePreview(m: Message): string {
  if (m.socketio) {
    const f = m.socketio;
    if (f.event) return `${f.event} ${f.data === undefined ? '' : JSON.stringify(f.data)}`.trim();
    return [f.engine, f.socket, f.data === undefined ? '' : JSON.stringify(f.data)].filter(Boolean).join(' ');
  }
  if (m.encoding === 'base64') return `Binary message (${m.size} bytes)`;
  const line = m.data.length > 500 ? m.data.slice(0, 500) : m.data;
  return line.replace(/\s+/g, ' ');
}

/** The message's data as JSON, when it is JSON (an object or an array). */
export function messageJson(m: Message): unknown {
  if (m.encoding !== 'text' || m.truncated) return undefined;
  const t = m.data.trimStart()[0];
  if (t !== '{' && t !== '[') return undefined;
  try {
    return JSON.parse(m.data);
  } catch {
    return undefined;
  }
}

export const OPCODES: Record<number, string> = { 1: 'text', 2: 'binary', 8: 'close', 9: 'ping', 10: 'pong' };
