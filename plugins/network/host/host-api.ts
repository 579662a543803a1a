import type { Har } from 'har-format';
import type { HostPluginInstance } from '../../../shared/host-plugin.js';
import { ToolArgumentError, ToolError } from '../../../shared/tool.js';
import type {
  AgentInfo,
  MockConfigView,
  MockRule,
  MockRuleInput,
  MockRulePatch,
  MockRuleWithOptionalId,
  NetworkProtocol,
  RedactionRules,
  ReplayRequest,
  ReplayResult,
  Transaction,
  TransactionFilter,
} from '../protocol.js';
import type { Page, PageQuery, TransactionStore } from './transaction-store.js';

// The network host's API: what its MCP tools (and anything else in the core) may call.

/** The push to the debuggee was refused or not answered; nothing was saved. */
export class MockSyncError extends ToolError {
  constructor(reason: string) {
    super(
      `failed to apply on the debuggee: ${reason}; the change was not saved. Check that the app is running and its network plugin allows mocking, then retry`,
    );
    this.name = 'MockSyncError';
  }
}

/** The network plugin's host part for one session: its traffic, and the app's mock rules. */
export interface NetworkHost extends HostPluginInstance<NetworkProtocol> {
  readonly sessionId: string;
  /** A page of transaction summaries, newest first unless `order: 'oldest'`. Throws CursorError on a bad cursor. */
  list(query: PageQuery): Page;
  /** Every transaction matching the filter, oldest first, in full. */
  transactions(filter?: TransactionFilter, urlOf?: (url: string) => string): Transaction[];
  get(id: string): Transaction | undefined;
  /** Forgets this session's transactions; returns how many. */
  clear(): number;
  stats(): ReturnType<TransactionStore['stats']>;
  /** How the app's agent captures (set once it has connected). */
  agentInfo(): AgentInfo | undefined;
  /** The app's redaction rules (saved per app; the defaults until the user changes them). */
  redactionRules(): RedactionRules;
  setRedactionRules(rules: RedactionRules): RedactionRules;
  /** The transaction as MCP results and exports carry it (redactForAgent with this app's rules). */
  forAgent(tx: Transaction): Transaction;

  mockConfig(): MockConfigView;
  addMockRule(input: MockRuleInput, signal?: AbortSignal): Promise<{ rule: MockRule; config: MockConfigView }>;
  updateMockRule(
    id: string,
    patch: MockRulePatch,
    signal?: AbortSignal,
  ): Promise<{ rule: MockRule; config: MockConfigView }>;
  removeMockRule(id: string, signal?: AbortSignal): Promise<MockConfigView>;
  setMockRules(rules: MockRuleWithOptionalId[], signal?: AbortSignal): Promise<MockConfigView>;
  setMockingEnabled(enabled: boolean, signal?: AbortSignal): Promise<MockConfigView>;

  /** HAR 1.2 of the session, or of the transactions matching `filter`. */
  exportHar(filter?: TransactionFilter, transactions?: Transaction[]): Har;
  /** Writes a large export to `<data-dir>/exports/` (mode 0600); its absolute path and size. */
  saveExport(fileName: string, data: string): { path: string; bytes: number };
  /** A file the user named, read safely (see HostPluginContext.readUserFile). */
  readUserFile(path: string, maxBytes: number, what: string): Promise<string>;
  /** Reads a HAR file (object or JSON text) into this session for offline viewing. Throws HarImportError. */
  importHar(har: unknown, source?: string): { imported: number };
  /**
   * Sends a captured request again from the app, optionally edited; the answer carries the new
   * transaction (marked `replayOf`) once it ended. Throws ToolError/ToolArgumentError saying what to do.
   */
  replay(request: ReplayRequest, signal?: AbortSignal): Promise<ReplayResult>;
}

export function unknownTransaction(id: string): ToolArgumentError {
  return new ToolArgumentError(
    `there is no transaction "${id}" in this session; it may have been cleared or dropped (the oldest go first). network_list_transactions lists the ids`,
  );
}
