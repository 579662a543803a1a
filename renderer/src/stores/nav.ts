import { create } from 'zustand';

export type View = 'sessions' | 'mcp' | 'tools' | 'history' | 'permissions';
export type Theme = 'light' | 'dark';

/** The session's timeline, chosen like a plugin (no plugin id starts with a colon). */
export const TIMELINE = ':timeline';

/** One item a plugin's panel is asked to show (a timeline row opened in its plugin). */
export interface Reveal {
  sessionId: string;
  plugin: string;
  /** The plugin's own id for it: the timeline entry's `ref`. */
  ref: string;
  /** Raised per request, so asking for the same item twice shows it twice. */
  seq: number;
}

export interface NavStore {
  view: View;
  sessionId?: string;
  /** The plugin panel shown for the selected session, or TIMELINE. */
  pluginId?: string;
  /** An item the plugin's panel should select (panel-kit's useReveal); cleared once shown. */
  reveal?: Reveal;
  /** Where "Back" goes from a panel opened from the timeline. */
  returnTo?: string;
  toolName?: string;
  callId?: string;
  theme: Theme;
  /** The theme follows the system's, live, until the person picks the other one. */
  themeFollowsSystem: boolean;
  /** Follow the AI agent: switch to the session and plugin each of its calls operates on. */
  follow: boolean;
  /** The sidebar folded away (narrow windows); remembered. */
  sidebarCollapsed: boolean;
  /** Arguments to prefill the tools browser's form with ("Run again" from the call history). */
  toolArgs?: Record<string, unknown>;
  show(view: View): void;
  selectSession(sessionId: string | undefined, pluginId?: string): void;
  selectPlugin(pluginId: string): void;
  /** Shows `ref` in its plugin's panel of `sessionId` (from the timeline, which "Back" returns to). */
  openIn(sessionId: string, plugin: string, ref: string): void;
  selectTool(name: string | undefined, args?: Record<string, unknown>): void;
  selectCall(id: string | undefined): void;
  setTheme(theme: Theme): void;
  setFollow(follow: boolean): void;
  setSidebarCollapsed(collapsed: boolean): void;
}

let revealSeq = 0;
const THEME_KEY = 'porthole.theme';
const SIDEBAR_KEY = 'porthole.sidebarCollapsed';

function remember(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    // not kept across reloads; the choice still applies now
  }
}

function systemTheme(): Theme {
  try {
    return globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  } catch {
    return 'light';
  }
}

function storedTheme(): Theme | undefined {
  try {
    const stored = globalThis.localStorage?.getItem(THEME_KEY);
    return stored === 'light' || stored === 'dark' ? stored : undefined;
  } catch {
    return undefined;
  }
}

export const useNav = create<NavStore>()((set) => ({
  view: 'sessions',
  theme: storedTheme() ?? systemTheme(),
  themeFollowsSystem: storedTheme() === undefined,
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
    set((s) => ({ view: 'sessions', sessionId, pluginId: pluginId ?? s.pluginId, returnTo: undefined })),
  selectPlugin: (pluginId) => set({ view: 'sessions', pluginId, returnTo: undefined }),
  openIn: (sessionId, plugin, ref) =>
    set((s) => ({
      view: 'sessions',
      sessionId,
      pluginId: plugin,
      returnTo: s.pluginId,
      reveal: { sessionId, plugin, ref, seq: ++revealSeq },
    })),
  selectTool: (toolName, toolArgs) => set({ view: 'tools', toolName, toolArgs }),
  selectCall: (callId) => set({ view: 'history', callId }),
  // Choosing the theme the system has goes back to following the system; the other one is remembered.
  setTheme: (theme) => {
    const follows = theme === systemTheme();
    try {
      if (follows) globalThis.localStorage?.removeItem(THEME_KEY);
      else globalThis.localStorage?.setItem(THEME_KEY, theme);
    } catch {
      // not kept across reloads; the choice still applies now
    }
    set({ theme, themeFollowsSystem: follows });
  },
  setFollow: (follow) => set({ follow }),
  setSidebarCollapsed: (sidebarCollapsed) => {
    remember(SIDEBAR_KEY, String(sidebarCollapsed));
    set({ sidebarCollapsed });
  },
}));

// The system switches between light and dark (at dusk, by hand): the window follows at once unless
// the person chose the other theme.
try {
  globalThis.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', (e) => {
    if (useNav.getState().themeFollowsSystem) useNav.setState({ theme: e.matches ? 'dark' : 'light' });
  });
} catch {
  // no media queries here (tests): nothing to follow
}
