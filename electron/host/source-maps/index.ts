import type { SourceFrame } from '../../../shared/host-plugin.js';
import type { MemoryBudget, RecordStore } from '../../../shared/records.js';
import type { SessionRegistry } from '../sessions.js';
import { FunctionScanner } from './function-names.js';
import { sourceAccessFor } from './source-access.js';
import { SourceMapper, type SourceMapperLimits, type SourceText } from './source-mapper.js';

export { sourceAccessFor } from './source-access.js';
export { PARSED_MAP_BYTES_PER_CHAR, type SourceAccess, SourceMapper, type SourceText } from './source-mapper.js';

export interface SourceMapOptions extends SourceMapperLimits {
  /** Folders of maps the user pointed at (`--source-maps <dir>`), for frames the inspector may not fetch or read. */
  folders?: readonly string[];
}

interface Held {
  sessionId: string;
  script: string;
  bytes: number;
}

/**
 * Source maps as a core service: one mapper per session, within what the session's connection
 * allows (source-access.ts), shared by every plugin of the session (`ctx.sourceMaps`). Parsed maps
 * count against the memory budget (store `source-maps`); past it they go with the oldest records
 * and are loaded again when a frame needs them. A session's maps are let go when it reconnects (a
 * reload may have rebuilt its scripts) and when it is cleared.
 */
export class SourceMapService {
  private readonly mappers = new Map<string, SourceMapper>();
  private readonly held: RecordStore<Held>;
  /** One worker thread parses every session's scripts for their functions. */
  private readonly scanner = new FunctionScanner();

  constructor(
    private readonly sessions: SessionRegistry,
    budget: MemoryBudget,
    private readonly options: SourceMapOptions = {},
  ) {
    this.held = budget.open<Held>('source-maps', {
      sizeOf: (h) => h.bytes,
      onDrop: (values) => {
        for (const h of values) this.mappers.get(h.sessionId)?.forget(h.script);
      },
    });
  }

  /** The frame's place in the original source, or undefined when no map says (or the session is gone). */
  map(sessionId: string, frame: SourceFrame): Promise<SourceFrame | undefined> {
    return this.mapper(sessionId)?.map(frame) ?? Promise.resolve(undefined);
  }

  /** The original source text a frame is in, where the session's access allows it (see SourceMapper.source). */
  source(sessionId: string, frame: SourceFrame): Promise<SourceText | undefined> {
    return this.mapper(sessionId)?.source(frame) ?? Promise.resolve(undefined);
  }

  /** The session (re)connected: its scripts may be new, and how it connected decides what may be fetched. */
  reset(sessionId: string): void {
    this.mappers.get(sessionId)?.clear();
    this.mappers.delete(sessionId);
  }

  close(): void {
    for (const id of [...this.mappers.keys()]) this.reset(id);
    this.held.close();
    this.scanner.close();
  }

  private mapper(sessionId: string): SourceMapper | undefined {
    let mapper = this.mappers.get(sessionId);
    if (mapper) return mapper;
    const session = this.sessions.get(sessionId);
    if (!session) return undefined;
    const key = (script: string) => `${sessionId}\n${script}`;
    const access = sourceAccessFor(session.info, session.connectionOrigin, this.options.folders ?? []);
    mapper = new SourceMapper(access, {
      ...this.options,
      scanner: this.scanner,
      onLoaded: (script, bytes) => this.held.set(key(script), { sessionId, script, bytes }),
      onForgotten: (script) => this.held.delete(key(script)),
    });
    this.mappers.set(sessionId, mapper);
    return mapper;
  }
}
