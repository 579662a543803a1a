import WebSocket from 'ws';
import { Limits } from '../../../shared/protocol/limits.js';
import { type Answer, type Expected, MARKER_RUN } from './link-frames.js';

export type Frame = Record<string, unknown>;

/**
 * One end of a link that a fuzz run drives: sends raw frames, keeps what arrives, and waits for a
 * condition the moment a frame or the close arrives (no polling: a run waits thousands of times).
 */
export class FuzzPeer {
  readonly inbox: Frame[] = [];
  closed: { code: number } | undefined;
  private wake: (() => void) | undefined;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const text = data.toString();
      let frame: Frame;
      try {
        frame = isBinary ? { type: '(binary)' } : (JSON.parse(text) as Frame);
      } catch {
        frame = { type: '(not json)', text: text.slice(0, 200) };
      }
      this.inbox.push(frame);
      this.wake?.();
    });
    ws.on('close', (code) => {
      this.closed = { code };
      this.wake?.();
    });
    ws.on('error', () => {
      // 'close' follows
    });
  }

  static open(url: string): Promise<FuzzPeer> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const peer = new FuzzPeer(ws);
      ws.once('open', () => resolve(peer));
      ws.once('error', reject);
    });
  }

  send(data: string | Uint8Array): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(data, { binary: typeof data !== 'string' });
  }

  /** The first frame in the inbox that matches, taken out of it. */
  take(match: (frame: Frame) => boolean): Frame | undefined {
    const i = this.inbox.findIndex(match);
    return i < 0 ? undefined : this.inbox.splice(i, 1)[0];
  }

  async until<T>(check: () => T | undefined | false, what: string, timeoutMs = 5000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value) return value;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          this.wake = undefined;
          resolve();
        };
      });
    }
  }
}

/**
 * What is wrong with the answers a step got, compared with what docs/protocol.md says (empty when
 * nothing): synchronous answers in order, late ones (after a plugin handler) by id, nothing extra,
 * and no answer that quotes a huge value back or carries an unbounded message.
 */
export function answerProblems(expected: Expected[], received: Frame[], closing: boolean): string[] {
  const problems: string[] = [];
  const late = new Map<string, Answer>();
  const inOrder: Answer[] = [];
  for (const e of expected) {
    if (!e.answer) continue;
    if (e.late && 'id' in e.answer && e.answer.id) late.set(e.answer.id, e.answer);
    else inOrder.push(e.answer);
  }
  let next = 0;
  for (const frame of received) {
    if (frame.type === 'heartbeat') continue;
    const text = JSON.stringify(frame);
    // A valid id (at most 200 characters) is echoed on purpose, and an echo reply carries its text.
    const { id: _id, ...rest } = frame;
    if (frame.type !== 'reply-ok' && JSON.stringify(rest).includes(MARKER_RUN)) {
      problems.push(`an answer quotes a huge value: ${text.slice(0, 200)}`);
    }
    const message = (frame.message ?? (frame.error as Frame | undefined)?.message) as unknown;
    if (typeof message === 'string' && message.length > Limits.maxErrorMessageChars) {
      problems.push(`an answer's message is ${message.length} characters`);
    }
    const id = frame.id as string | undefined;
    const byId = id !== undefined ? late.get(id) : undefined;
    if (byId && (frame.type === 'reply-ok' || frame.type === 'reply-error')) {
      late.delete(id!);
      const problem = mismatch(byId, frame);
      if (problem) problems.push(problem);
      continue;
    }
    const want = inOrder[next++];
    if (!want) {
      problems.push(`an answer nobody should get: ${text.slice(0, 300)}`);
      continue;
    }
    const problem = mismatch(want, frame);
    if (problem) problems.push(problem);
  }
  if (next < inOrder.length) problems.push(`missing answers: ${JSON.stringify(inOrder.slice(next)).slice(0, 500)}`);
  if (!closing && late.size > 0)
    problems.push(`missing late answers: ${JSON.stringify([...late.values()]).slice(0, 500)}`);
  return problems;
}

function mismatch(want: Answer, got: Frame): string | undefined {
  const show = () => `expected ${JSON.stringify(want)}, got ${JSON.stringify(got).slice(0, 400)}`;
  if (got.type !== want.type) return show();
  switch (want.type) {
    case 'protocol-error':
      if (got.code !== want.code || got.id !== want.id) return show();
      return undefined;
    case 'reply-error':
      if (got.id !== want.id || (got.error as Frame | undefined)?.code !== want.code) return show();
      return undefined;
    case 'reply-ok':
      if (got.id !== want.id) return show();
      if (want.result !== undefined && JSON.stringify(got.result) !== JSON.stringify(want.result)) return show();
      return undefined;
    case 'reject':
      return got.reason === want.reason ? undefined : show();
    default:
      return undefined;
  }
}
