import { create } from 'zustand';
import {
  effectivePermission,
  type PermissionAsk,
  type PermissionPolicy,
  type PermissionsView,
} from '../../../shared/permissions.js';

export interface PermissionsStore {
  view?: PermissionsView;
  /** Questions waiting for an answer, oldest first. */
  asks: PermissionAsk[];
  setView(view: PermissionsView): void;
  asked(ask: PermissionAsk): void;
  settled(askId: string): void;
}

export const usePermissions = create<PermissionsStore>()((set) => ({
  asks: [],
  // The view lists every waiting question: a window opened (or reconnected) mid-question still shows it.
  setView: (view) => set({ view, asks: [...view.asks].sort((a, b) => a.startedAt - b.startedAt) }),
  asked: (ask) => set((s) => (s.asks.some((a) => a.id === ask.id) ? s : { asks: [...s.asks, ask] })),
  settled: (askId) => set((s) => ({ asks: s.asks.filter((a) => a.id !== askId) })),
}));

/** The view as it will be under `policy`, worked out here by the same rules the core applies (shown before the core confirms). */
export function withPolicy(view: PermissionsView, policy: PermissionPolicy): PermissionsView {
  return {
    ...view,
    policy,
    tools: view.tools.map((tool) => {
      const { permission, source } = effectivePermission(policy, {
        name: tool.name,
        annotations: { readOnlyHint: tool.readOnly },
        defaultPermission: tool.defaultPermission,
      });
      const setting = Object.hasOwn(policy.tools, tool.name) ? policy.tools[tool.name] : undefined;
      return { ...tool, permission, source, setting };
    }),
  };
}
