import type { CallDetail, CallSummary, McpStatus, ToolInfo, ToolRunResult } from '../../../shared/bridge.js';
import type {
  AskAnswer,
  PermissionPolicyInput,
  PermissionPreset,
  PermissionsView,
} from '../../../shared/permissions.js';

/** The tool registry as the window sees it (provided by the MCP layer). */
export interface BridgeTools {
  list(): ToolInfo[] | Promise<ToolInfo[]>;
  /** Runs a tool with surface `ui`; the run is recorded in the call history. */
  run(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<{ callId?: string; result: ToolRunResult }>;
  onChanged(listener: () => void): () => void;
}

/** The call history (provided by the MCP layer). */
export interface BridgeHistory {
  list(limit: number): CallSummary[] | Promise<CallSummary[]>;
  get(id: string): CallDetail | undefined | Promise<CallDetail | undefined>;
  /** Ids of the calls whose arguments or results contain the text, newest first. */
  search(text: string): string[] | Promise<string[]>;
  /** The most calls the history keeps. */
  readonly capacity: number;
  clear(): number | Promise<number>;
  subscribe(listener: (event: 'call:started' | 'call:finished', call: CallSummary) => void): () => void;
}

/** The MCP server's state (provided by the MCP layer). */
export interface BridgeMcp {
  status(): McpStatus;
  token(): string | undefined;
  onStatus(listener: (status: McpStatus) => void): () => void;
}

/** Which plugins' tools MCP clients see (provided by the core; absent when it lists every plugin). */
export interface BridgePluginListing {
  list(): { id: string; offered: boolean; enabled: boolean }[];
  setEnabled(id: string, on: boolean): void;
}

/** Agent permissions (provided by the core). */
export interface BridgePermissions {
  view(): PermissionsView;
  set(policy: PermissionPolicyInput): PermissionsView;
  preset(preset: PermissionPreset): PermissionsView;
  /** False when the question was already settled. */
  answer(askId: string, answer: AskAnswer): boolean;
  onChanged(listener: () => void): () => void;
}
