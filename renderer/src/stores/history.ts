import { create } from 'zustand';
import type { CallStatus, CallSummary } from '../../../shared/bridge.js';
import { inertText } from '../inert-text.js';

/** How long a finished agent call stays named in the activity indicator, so fast calls still show. */
export const FLASH_MS = 1500;
/** Until the core says how many it keeps. */
const DEFAULT_CAPACITY = 1000;

export interface HistoryFilters {
  status: 'all' | CallStatus;
  tool: string;
  sessionId: string;
  client: string;
}

export const NO_FILTERS: HistoryFilters = { status: 'all', tool: '', sessionId: '', client: '' };

export interface AgentActivity {
  /** Agent calls (any surface but the window's own) still running, oldest first. */
  running: CallSummary[];
  /** The last agent call that finished, shown until `visibleUntil`. */
  last?: { call: CallSummary; visibleUntil: number };
}

export interface HistoryStore {
  /** Newest first. */
  calls: CallSummary[];
  loaded: boolean;
  /** The most calls the core keeps; the window keeps no more, so every window shows the same list. */
  capacity: number;
  filters: HistoryFilters;
  activity: AgentActivity;
  load(calls: CallSummary[], capacity?: number): void;
  started(call: CallSummary, now?: number): void;
  finished(call: CallSummary, now?: number): void;
  setFilters(filters: Partial<HistoryFilters>): void;
  clear(): void;
}

const shownAt = new Map<string, number>();

export const useHistory = create<HistoryStore>()((set) => ({
  calls: [],
  loaded: false,
  capacity: DEFAULT_CAPACITY,
  filters: NO_FILTERS,
  activity: { running: [] },
  load: (calls, capacity) =>
    set((s) => {
      // Events that arrived before the list are newer than what the list holds, or the same calls.
      const known = new Set(s.calls.map((c) => c.id));
      const merged = [...s.calls, ...calls.filter((c) => !known.has(c.id))];
      const keep = capacity ?? s.capacity;
      return { calls: sortNewestFirst(merged).slice(0, keep), loaded: true, capacity: keep };
    }),
  started: (call, now = Date.now()) =>
    set((s) => {
      const calls = upsert(s.calls, call, s.capacity);
      if (call.surface === 'ui') return { calls };
      shownAt.set(call.id, now);
      return {
        calls,
        activity: { ...s.activity, running: [...s.activity.running.filter((c) => c.id !== call.id), call] },
      };
    }),
  finished: (call, now = Date.now()) =>
    set((s) => {
      const calls = upsert(s.calls, call, s.capacity);
      if (call.surface === 'ui') return { calls };
      const since = shownAt.get(call.id) ?? now;
      shownAt.delete(call.id);
      return {
        calls,
        activity: {
          running: s.activity.running.filter((c) => c.id !== call.id),
          last: { call, visibleUntil: Math.max(now, since) + FLASH_MS },
        },
      };
    }),
  setFilters: (filters) => set((s) => ({ filters: { ...s.filters, ...filters } })),
  clear: () => set({ calls: [], activity: { running: [] } }),
}));

function upsert(calls: CallSummary[], call: CallSummary, capacity: number): CallSummary[] {
  const index = calls.findIndex((c) => c.id === call.id);
  if (index >= 0) {
    const next = calls.slice();
    next[index] = call;
    return next;
  }
  const next = [call, ...calls];
  if (next.length > 1 && next[1]!.startedAt > call.startedAt) sortNewestFirst(next);
  return next.length > capacity ? next.slice(0, capacity) : next;
}

function sortNewestFirst(calls: CallSummary[]): CallSummary[] {
  return calls.sort((a, b) => b.startedAt - a.startedAt);
}

export function filterCalls(calls: CallSummary[], filters: HistoryFilters): CallSummary[] {
  return calls.filter(
    (c) =>
      (filters.status === 'all' || c.status === filters.status) &&
      (!filters.tool || c.tool === filters.tool) &&
      (!filters.sessionId || c.sessionId === filters.sessionId) &&
      (!filters.client || clientLabel(c) === filters.client),
  );
}

export function clientLabel(call: Pick<CallSummary, 'client' | 'surface'>): string {
  if (call.client) return inertText(`${call.client.name} ${call.client.version}`);
  return call.surface === 'ui' ? 'Porthole window' : 'unknown client';
}

export type IndicatorState =
  | { kind: 'none' }
  | { kind: 'idle'; clients: string[] }
  | { kind: 'running'; tool: string; more: number; call: CallSummary }
  | { kind: 'flash'; tool: string; status: CallStatus; call: CallSummary };

/** What the AI-activity indicator shows at `now`. */
export function indicatorState(activity: AgentActivity, clients: string[], now: number): IndicatorState {
  const current = activity.running.at(-1);
  if (current) return { kind: 'running', tool: current.tool, more: activity.running.length - 1, call: current };
  if (activity.last && activity.last.visibleUntil > now) {
    return {
      kind: 'flash',
      tool: activity.last.call.tool,
      status: activity.last.call.status,
      call: activity.last.call,
    };
  }
  return clients.length > 0 ? { kind: 'idle', clients } : { kind: 'none' };
}
