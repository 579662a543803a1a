import { create } from 'zustand';

export type View = 'sessions' | 'mcp' | 'tools' | 'history';
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
  show(view: View): void;
  selectSession(sessionId: string | undefined, pluginId?: string): void;
  selectPlugin(pluginId: string): void;
  selectTool(name: string | undefined): void;
  selectCall(id: string | undefined): void;
  setTheme(theme: Theme): void;
  setFollow(follow: boolean): void;
}

const THEME_KEY = 'porthole.theme';

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
  show: (view) => set({ view }),
  selectSession: (sessionId, pluginId) =>
    set((s) => ({
      view: 'sessions',
      sessionId,
      pluginId: pluginId ?? (s.sessionId === sessionId ? s.pluginId : undefined),
    })),
  selectPlugin: (pluginId) => set({ view: 'sessions', pluginId }),
  selectTool: (toolName) => set({ view: 'tools', toolName }),
  selectCall: (callId) => set({ view: 'history', callId }),
  setTheme: (theme) => {
    try {
      globalThis.localStorage?.setItem(THEME_KEY, theme);
    } catch {
      // not kept across reloads; the choice still applies now
    }
    set({ theme });
  },
  setFollow: (follow) => set({ follow }),
}));
