import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { BRIDGE_PATH, type CallDetail, type CallSummary } from '../../shared/bridge.js';
import { readInstance } from '../host/instance-file.js';
import { signUiNonce, uiCookieName } from '../host/ui-bridge/ui-auth.js';
import { InspectorUnavailableError } from './inspector.js';

// The call history of a running inspector, read as its window reads it: over the window's bridge
// (`history.list`, `history.get`), with the window's access: the session cookie signed with the UI
// key in <data-dir>/ui-token (as electron/host/ui-bridge/ui-auth.ts signs it), so the one-time link
// in instance.json stays unused for the user; an inspector without that key takes the link's token.
// It asks nothing else of the bridge and leaves at once.

export interface HistoryReader {
  /** Newest first, at most `limit` (default all the inspector keeps). */
  list(limit?: number): Promise<CallSummary[]>;
  /** One call with its arguments and result. */
  get(id: string): Promise<CallDetail>;
  close(): void;
}

export async function openHistory(dataDir: string): Promise<HistoryReader> {
  const instance = readInstance(dataDir);
  if (!instance) {
    throw new InspectorUnavailableError(
      `no Porthole inspector is running for the data dir ${dataDir}; start it (the desktop app, or \`porthole serve --data-dir ${dataDir}\`) or pass --data-dir`,
    );
  }
  const token = new URL(instance.uiUrl).searchParams.get('token') ?? '';
  const url = `${instance.controlUrl.replace(/^http/, 'ws')}${BRIDGE_PATH}?token=${encodeURIComponent(token)}`;
  const cookie = windowCookie(dataDir, instance.controlUrl);
  const ws = new WebSocket(url, { maxPayload: 64 * 1024 * 1024, ...(cookie && { headers: { cookie } }) });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) =>
      reject(new InspectorUnavailableError(`the inspector refused to show its history (HTTP ${res.statusCode})`)),
    );
    ws.once('error', (e) =>
      reject(new InspectorUnavailableError(`could not reach the inspector at ${url}: ${e.message}`)),
    );
  });
  const waiting = new Map<string, { resolve(value: unknown): void; reject(error: Error): void }>();
  let next = 1;
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as {
      type: string;
      id?: string;
      ok?: boolean;
      result?: unknown;
      error?: { message: string };
    };
    if (frame.type !== 'reply' || !frame.id) return;
    const pending = waiting.get(frame.id);
    waiting.delete(frame.id);
    if (frame.ok) pending?.resolve(frame.result);
    else pending?.reject(new Error(frame.error?.message ?? 'the inspector refused the request'));
  });
  ws.on('close', () => {
    for (const pending of waiting.values()) pending.reject(new Error('the inspector closed the connection'));
    waiting.clear();
  });
  const request = <T>(method: string, params: Record<string, unknown>) =>
    new Promise<T>((resolve, reject) => {
      const id = `h${next++}`;
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      ws.send(JSON.stringify({ type: 'request', id, method, params }));
    });
  return {
    list: async (limit) => (await request<{ calls: CallSummary[] }>('history.list', limit ? { limit } : {})).calls,
    get: async (id) => (await request<{ call: CallDetail }>('history.get', { id })).call,
    close: () => ws.close(),
  };
}

/** The window's session cookie for this control server, signed with the data dir's UI key (none without one). */
function windowCookie(dataDir: string, controlUrl: string): string | undefined {
  let key: string;
  try {
    key = readFileSync(join(dataDir, 'ui-token'), 'utf8').trim();
  } catch {
    return undefined;
  }
  if (!key) return undefined;
  const nonce = randomBytes(18).toString('base64url');
  return `${uiCookieName(new URL(controlUrl).host)}=${nonce}.${signUiNonce(key, nonce)}`;
}
