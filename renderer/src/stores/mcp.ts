import { create } from 'zustand';
import type { McpStatus, ToolInfo } from '../../../shared/bridge.js';
import { inertMcpStatus } from '../inert-text.js';

export interface McpStore {
  status?: McpStatus;
  /** Only once the user asked to reveal or copy it. */
  token?: string;
  tools: ToolInfo[];
  toolsLoaded: boolean;
  setStatus(status: McpStatus): void;
  setToken(token: string | undefined): void;
  setTools(tools: ToolInfo[]): void;
}

export const useMcp = create<McpStore>()((set) => ({
  tools: [],
  toolsLoaded: false,
  setStatus: (status) => set({ status: inertMcpStatus(status) }),
  setToken: (token) => set({ token }),
  setTools: (tools) => set({ tools: [...tools].sort((a, b) => a.name.localeCompare(b.name)), toolsLoaded: true }),
}));

/** Tools whose name, title or description contain every word of the query (case-insensitive). */
export function searchTools(tools: ToolInfo[], query: string): ToolInfo[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return tools;
  return tools.filter((t) => {
    const hay = `${t.name} ${t.title} ${t.description} ${t.plugin ?? 'inspector'}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}
