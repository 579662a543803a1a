import { definePlugin, type HostPluginContext } from '../../../shared/host-plugin.js';
import { type TimelineEntry, timelinePage, timelineSummary } from '../../../shared/timeline.js';
import { describeIssues } from '../../../shared/zod-issues.js';
import {
  AgentMessageSchema,
  type BatchWire,
  type ConsoleProtocol,
  consoleProtocol,
  type Frame,
  type MessageSummary,
  type StackFrame,
} from '../protocol.js';
import type { ConsoleHost } from './host-api.js';
import { ConsoleStore, DEFAULT_STORE_LIMITS, type Entry, fullMessage, type StoreLimits, summarize } from './store.js';
import { consoleTools } from './tools.js';

export interface ConsoleHostOptions {
  limits?: StoreLimits;
  /** `false` leaves frames as the app sent them; else they are mapped with the inspector's source maps (`ctx.sourceMaps`). */
  sourceMaps?: false;
}

const MAPPED_FRAMES_PER_MESSAGE = 30;
const REMEMBERED_FRAMES = 10_000;

export function createConsoleHost(
  ctx: HostPluginContext<ConsoleProtocol>,
  options: ConsoleHostOptions = {},
): ConsoleHost {
  const store = new ConsoleStore(options.limits ?? DEFAULT_STORE_LIMITS, ctx.records);
  let connections = 0;
  /** Mapped places by raw place (`undefined`: no map says), bounded. */
  const places = new Map<string, Promise<Frame | undefined>>();
  const pending = new Map<Entry, Promise<void>>();

  const mapEntry = (entry: Entry) => {
    if (options.sourceMaps === false) return;
    const frames = [entry.callSite, ...(entry.stack ?? [])].filter((f): f is StackFrame => !!f && !f.mapped);
    if (frames.length === 0) return;
    const work = Promise.all(
      frames.slice(0, MAPPED_FRAMES_PER_MESSAGE).map(async (frame) => {
        const key = `${frame.file}:${frame.line}:${frame.column}`;
        let place = places.get(key);
        if (!place) {
          place = ctx.sourceMaps.map(frame).catch(() => undefined);
          places.set(key, place);
          if (places.size > REMEMBERED_FRAMES) places.delete(places.keys().next().value!);
        }
        const mapped = await place;
        if (mapped) frame.mapped = mapped;
        return mapped !== undefined;
      }),
    ).then((done) => {
      pending.delete(entry);
      if (done.some(Boolean) && store.get(entry.seq) === entry) {
        store.touched(entry);
        publish([summarize(entry)]);
      }
    });
    pending.set(entry, work);
  };
  /** Waits (a bounded time) for the source maps of these entries, so an answer has mapped frames. */
  const settle = async (entries: Entry[], timeoutMs = 3000) => {
    const waits = entries.flatMap((e) => pending.get(e) ?? []);
    if (waits.length === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all(waits), new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
  };
  const publish = (messages: MessageSummary[]) => {
    if (messages.length > 0) ctx.emit('messages', { messages, stats: store.stats() });
  };

  const ingest = (batch: BatchWire) => {
    if (batch.dropped > 0) store.droppedByApp(batch.dropped);
    const changed = new Map<number, MessageSummary>();
    for (const raw of batch.messages) {
      const parsed = AgentMessageSchema.safeParse(raw);
      if (!parsed.success) {
        store.refused(describeIssues(parsed.error));
        continue;
      }
      const message = parsed.data;
      if (typeof message.site === 'number') {
        const site = batch.sites?.[message.site];
        if (site) message.site = site;
        else delete message.site;
      }
      const added = store.add(message);
      if (!added) continue;
      changed.set(added.entry.seq, summarize(added.entry));
      if (!added.repeat) mapEntry(added.entry);
    }
    publish([...changed.values()]);
  };
  const clear = () => {
    const n = store.clear();
    ctx.emit('cleared', {});
    return n;
  };

  return {
    store,
    ingest,
    clear,
    settle,
    timeline: (query) => timelinePage(store.all(), (e) => e.firstTime, messageEntry, query),
    notifications: { batch: ingest },
    onConnect() {
      // A reload may have rebuilt the scripts: their places are mapped again (the core lets their maps go).
      places.clear();
      if (connections++ === 0) return;
      const page = ctx.session().device.page?.url;
      publish([summarize(store.mark('connected', page ? `Reconnected: ${page}` : 'The app reconnected'))]);
    },
    panel: {
      list: ({ afterSeq, limit }) => {
        const { entries, hasMore } = store.after(afterSeq ?? 0, limit);
        return { messages: entries.map(summarize), stats: store.stats(), hasMore };
      },
      get: async ({ seq }) => {
        const e = store.get(seq);
        if (e) await settle([e]);
        return e ? fullMessage(e) : null;
      },
      clear: () => ({ cleared: clear() }),
    },
  };
}

export default definePlugin({
  protocol: consoleProtocol,
  title: 'Console',
  create: (ctx) => createConsoleHost(ctx),
  tools: consoleTools,
});

export type { ConsoleHost } from './host-api.js';

/** A message on the session's timeline (a repeat run stays one entry, at its first time). */
function messageEntry(e: Entry): TimelineEntry {
  return {
    time: e.firstTime,
    plugin: 'console',
    kind: e.kind === 'exception' || e.kind === 'rejection' ? e.kind : 'message',
    level: e.level,
    ref: String(e.seq),
    summary: timelineSummary(`${e.count > 1 ? `(×${e.count}) ` : ''}${e.text}`),
  };
}
