import type { CallSummary } from '../../shared/call-record.js';
import type { LinkStatus } from '../../shared/link-status.js';
import type { CallDecision, PermissionAsk } from '../../shared/permissions.js';
import type { SessionInfo } from '../../shared/session.js';
import type { McpStatus } from './mcp/mcp-status.js';

/** Everything the core announces; the UI bridge and the MCP layer subscribe here. */
export interface CoreEvents {
  'session:connected': { session: SessionInfo; resumed: boolean };
  'session:disconnected': { session: SessionInfo; code: number; reason: string };
  'session:updated': { session: SessionInfo };
  'session:removed': { sessionId: string };
  'plugin:event': { sessionId: string; plugin: string; event: string; data: unknown };
  'link:protocol-error': { sessionId?: string; remoteAddress: string; code: string; message: string };
  /** The link refused a LAN app's pairing or cut off an app that did not read (coalesced, at most 4 a second). */
  'link:stats': LinkStatus;
  /** A tool call began (any surface); its summary has status `running`. */
  'call:started': { call: CallSummary };
  /** A tool call ended: succeeded, failed or cancelled. */
  'call:finished': { call: CallSummary };
  /** The tool set changed (tools/list_changed goes to every MCP session). */
  'tools:changed': Record<string, never>;
  /** MCP clients connected or left, or the server started or stopped. */
  'mcp:status': { status: McpStatus };
  /** The agent permissions changed (policy or session grants): MCP sessions re-list their tools. */
  'permissions:changed': Record<string, never>;
  /** A call waits for the person at the window to allow it. */
  'permission:ask': { ask: PermissionAsk };
  /** A question was answered, timed out, or its caller gave up (no decision). */
  'permission:settled': { askId: string; callId: string; decision?: CallDecision };
}

type Listener<T> = (payload: T) => void;

export class EventBus<Events extends object = CoreEvents> {
  private readonly listeners = new Map<keyof Events, Set<Listener<never>>>();

  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  /** How many listeners `event` has (tests check that what subscribes also lets go). */
  listenerCount(event: keyof Events): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  /** Calls every listener; one that throws is reported and does not stop the others. */
  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as Listener<Events[K]>)(payload);
      } catch (e) {
        console.error(`[porthole] a listener of ${String(event)} threw:`, e);
      }
    }
  }
}
