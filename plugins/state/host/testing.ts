import { onTestFinished } from 'vitest';
import { startPlugin } from '../../../electron/host/plugin-testing.js';
import { waitFor } from '../../../electron/host/testing.js';
import { hub } from '../agent/hub.js';
import { type StateOptions, state } from '../agent/index.js';
import stateHost from './index.js';

/**
 * The libraries look for the devtools API on `window` (Redux Toolkit when it loads, Zustand when a
 * store is made); in Node there is none. Tests run as React Native does: `window` is the global.
 * Call before importing @reduxjs/toolkit (dynamically: static imports run first).
 */
export function windowIsGlobal(): void {
  (globalThis as { window?: unknown }).window ??= globalThis;
}

/**
 * The plugin kit's startPlugin with the state agent part in this process. The realm's stores are
 * forgotten first unless `keepStores` (the hub outlives a test), and `allow()` lets MCP clients run state_dispatch
 * without being asked (it asks by default).
 */
export async function startState(options: StateOptions = {}, { keepStores = false } = {}) {
  if (!keepStores) hub().stores.splice(0);
  const t = await startPlugin(stateHost, state({ flushMs: 5, ...options }));
  const allow = () => t.core.permissions.set({ tools: { state_dispatch: 'allow' } });
  /** Waits for the host to know store `name` up to action `seq` (0: its first state). */
  const stored = (name: string, seq = 0) =>
    waitFor(
      () => t.host.stores().find((s) => s.name === name && s.active && s.latest >= seq),
      `store "${name}" up to action #${seq}`,
    );
  onTestFinished(() => {
    hub().stores.splice(0);
  });
  return { t, allow, stored };
}
