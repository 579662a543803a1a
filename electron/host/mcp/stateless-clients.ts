import type { McpSurface } from '../../../shared/tool.js';
import type { McpClientInfo } from './mcp-status.js';

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
      if (isNew) client.connectedAt = now;
    } else {
      client = { id, name, version, surface, connectedAt: now, lastActivityAt: now, openRequests: 0 };
    }
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
    return c.openRequests > 0 || now - c.lastActivityAt < this.presenceMs;
  }
}
