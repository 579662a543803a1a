import { join } from 'node:path';
import type { SessionInfo } from '../../../shared/session.js';
import { readJson, writeFileAtomic } from '../data-dir.js';
import type { EventBus } from '../event-bus.js';

/** The file in the data dir that remembers which plugins MCP clients are shown. */
export const LISTED_PLUGINS_FILE = 'mcp-plugins.json';

interface ListedPluginsFile {
  /** Plugins an app has offered to this inspector (accepted for one of its sessions). */
  offered: string[];
  /** Plugins the user enabled in the window, offered or not. */
  enabled: string[];
}

/**
 * Which plugins' tools tools/list shows (issue 37 §3): a plugin's tools are listed once an app has
 * offered that plugin to this inspector, or the user enabled it in the window, so an agent that
 * debugs a web page is not handed the tools of plugins no app here runs. Remembered in the data dir;
 * `tools:changed` (hence notifications/tools/list_changed) when the set grows or shrinks. Calls are
 * not gated by it: a tool named from the docs still runs.
 */
export class PluginListing {
  private readonly file: string;
  private readonly offered: Set<string>;
  private readonly enabled: Set<string>;

  constructor(
    dataDir: string,
    private readonly bus: EventBus,
    /** The plugins this inspector has: names outside it in the file are kept but never listed. */
    private readonly known: () => readonly string[],
  ) {
    this.file = join(dataDir, LISTED_PLUGINS_FILE);
    const saved = readJson<Partial<ListedPluginsFile>>(this.file, { quarantine: true });
    const ids = (list: unknown) =>
      Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string' && id.length <= 64) : [];
    this.offered = new Set(ids(saved?.offered));
    this.enabled = new Set(ids(saved?.enabled));
    const offered = ({ session }: { session: SessionInfo }) => this.offer(session.plugins.accepted.map((p) => p.id));
    bus.on('session:connected', offered);
    bus.on('session:updated', offered);
  }

  /** Whether tools/list shows this plugin's tools. */
  listed(plugin: string): boolean {
    return this.offered.has(plugin) || this.enabled.has(plugin);
  }

  /** The plugins listed now, of those this inspector has. */
  list(): { id: string; offered: boolean; enabled: boolean }[] {
    return this.known().map((id) => ({ id, offered: this.offered.has(id), enabled: this.enabled.has(id) }));
  }

  /** An app offered these plugins (its session accepted them). */
  offer(ids: readonly string[]): void {
    const fresh = ids.filter((id) => !this.offered.has(id) && this.known().includes(id));
    if (fresh.length === 0) return;
    const changed = fresh.some((id) => !this.listed(id));
    for (const id of fresh) this.offered.add(id);
    this.save(changed);
  }

  /** The user's switch in the window: list a plugin's tools although no app offered it (or stop). */
  setEnabled(id: string, on: boolean): void {
    if (!this.known().includes(id)) throw new Error(`this inspector has no "${id}" plugin`);
    if (this.enabled.has(id) === on) return;
    const before = this.listed(id);
    if (on) this.enabled.add(id);
    else this.enabled.delete(id);
    this.save(before !== this.listed(id));
  }

  private save(changed: boolean): void {
    try {
      const data: ListedPluginsFile = { offered: [...this.offered].sort(), enabled: [...this.enabled].sort() };
      writeFileAtomic(this.file, `${JSON.stringify(data, null, 2)}\n`);
    } catch (e) {
      console.error(`[porthole] could not save ${LISTED_PLUGINS_FILE}:`, (e as Error).message);
    }
    if (changed) this.bus.emit('tools:changed', {});
  }
}

/**
 * The plugins a client asked for with `?plugins=network,console` on the MCP URL (or
 * `porthole mcp --plugins`): undefined when it did not narrow. Unknown names narrow to nothing.
 */
export function narrowedPlugins(value: string | null | undefined): string[] | undefined {
  if (value === null || value === undefined) return undefined;
  return value
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
}
