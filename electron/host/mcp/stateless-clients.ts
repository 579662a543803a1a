import type { McpSurface } from '../../../shared/tool.js';
import type { McpClientInfo } from './mcp-status.js';

/**
 * A client that made only this many requests (a 2025-era session: initialize, initialized, one call,
 * its GET stream not counted; a stateless client: one) and holds nothing open is a one-shot one (`porthole call`, a script): it
 * counts as connected for ONE_SHOT_PRESENCE_MS after its last, not presenceMs, so a burst of them
 * does not inflate the count for a minute.
 */
export const ONE_SHOT_REQUESTS = 3;
export const ONE_SHOT_PRESENCE_MS = 3000;

/** Distinct stateless clients remembered at once; past it the one heard from least recently is forgotten. */
const MAX_REMEMBERED = 64;

interface StatelessClient {
  id: string;
  name: string;
  version: string;
  surface: McpSurface;
  connectedAt: number;
  lastActivityAt: number;
  /** Its requests still being answered (each tools/call is one). */
  openRequests: number;
  /** Requests since it (re)appeared: one alone is a one-shot client (see ONE_SHOT_PRESENCE_MS). */
  requests: number;
}

/**
 * The 2026-07-28 clients: they have no session, so a client is the client info its requests carry
 * in `_meta` (name and version; "unknown" without one) plus the surface it came through. It counts
 * as connected while one of its requests is open, or for `presenceMs` after its last one.
 */
export class StatelessClients {
  private readonly clients = new Map<string, StatelessClient>();

  constructor(private readonly presenceMs: number) {}

  /** Notes a request from this client; `done` when it has been answered. */
  seen(info: { name: string; version: string } | undefined, surface: McpSurface): { isNew: boolean; done(): void } {
    const name = info?.name ?? 'unknown';
    const version = info?.version ?? '';
    const id = `stateless:${surface}:${name}@${version}`;
    const now = Date.now();
    let client = this.clients.get(id);
    const isNew = !client || !this.isPresent(client, now);
    if (client) {
      this.clients.delete(id); // re-inserted last: the map stays in least-recently-heard order
      if (isNew) {
        client.connectedAt = now;
        client.requests = 0;
      }
    } else {
      client = { id, name, version, surface, connectedAt: now, lastActivityAt: now, openRequests: 0, requests: 0 };
    }
    client.requests++;
    this.clients.set(id, client);
    client.openRequests++;
    client.lastActivityAt = now;
    if (this.clients.size > MAX_REMEMBERED) this.clients.delete(this.clients.keys().next().value as string);
    const seen = client;
    let finished = false;
    return {
      isNew,
      done: () => {
        if (finished) return;
        finished = true;
        seen.openRequests--;
        seen.lastActivityAt = Date.now();
      },
    };
  }

  present(now = Date.now()): McpClientInfo[] {
    const present: McpClientInfo[] = [];
    for (const [id, c] of this.clients) {
      if (this.isPresent(c, now)) {
        present.push({
          id,
          name: c.name,
          version: c.version,
          surface: c.surface,
          connectedAt: c.connectedAt,
          lastActivityAt: c.lastActivityAt,
          callsInFlight: c.openRequests,
        });
      } else {
        this.clients.delete(id);
      }
    }
    return present;
  }

  private isPresent(c: StatelessClient, now: number): boolean {
    const presence = c.requests <= 1 ? Math.min(ONE_SHOT_PRESENCE_MS, this.presenceMs) : this.presenceMs;
    return c.openRequests > 0 || now - c.lastActivityAt < presence;
  }
}
