import { create } from 'zustand';

export type View = 'sessions' | 'mcp' | 'tools' | 'history' | 'permissions';
export type Theme = 'light' | 'dark';

export interface NavStore {
  view: View;
  sessionId?: string;
  /** The plugin panel shown for the selected session. */
  pluginId?: string;
  toolName?: string;
  callId?: string;
  theme: Theme;
  /** Follow the AI agent: switch to the session and plugin each of its calls operates on. */
  follow: boolean;
  /** The sidebar folded away (narrow windows); remembered. */
  sidebarCollapsed: boolean;
  /** Arguments to prefill the tools browser's form with ("Run again" from the call history). */
  toolArgs?: Record<string, unknown>;
  show(view: View): void;
  selectSession(sessionId: string | undefined, pluginId?: string): void;
  selectPlugin(pluginId: string): void;
  selectTool(name: string | undefined, args?: Record<string, unknown>): void;
  selectCall(id: string | undefined): void;
  setTheme(theme: Theme): void;
  setFollow(follow: boolean): void;
  setSidebarCollapsed(collapsed: boolean): void;
}

const THEME_KEY = 'porthole.theme';
const SIDEBAR_KEY = 'porthole.sidebarCollapsed';

function remember(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    // not kept across reloads; the choice still applies now
  }
}

function initialTheme(): Theme {
  try {
    const stored = globalThis.localStorage?.getItem(THEME_KEY);
    if (stored === 'light' || stored === 'dark') return stored;
    return globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  } catch {
    return 'light';
  }
}

export const useNav = create<NavStore>()((set) => ({
  view: 'sessions',
  theme: initialTheme(),
  follow: false,
  sidebarCollapsed: (() => {
    try {
      return globalThis.localStorage?.getItem(SIDEBAR_KEY) === 'true';
    } catch {
      return false;
    }
  })(),
  show: (view) => set({ view }),
  // The chosen plugin stays chosen across sessions (Network stays Network); a session without it
  // shows its first panel, and the choice comes back with the next session that has it.
  selectSession: (sessionId, pluginId) =>
    set((s) => ({ view: 'sessions', sessionId, pluginId: pluginId ?? s.pluginId })),
  selectPlugin: (pluginId) => set({ view: 'sessions', pluginId }),
  selectTool: (toolName, toolArgs) => set({ view: 'tools', toolName, toolArgs }),
  selectCall: (callId) => set({ view: 'history', callId }),
  setTheme: (theme) => {
    remember(THEME_KEY, theme);
    set({ theme });
  },
  setFollow: (follow) => set({ follow }),
  setSidebarCollapsed: (sidebarCollapsed) => {
    remember(SIDEBAR_KEY, String(sidebarCollapsed));
    set({ sidebarCollapsed });
  },
}));
