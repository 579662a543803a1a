import { definePlugin, type HostPluginContext } from '../../../shared/host-plugin.js';
import { describeIssues } from '../../../shared/zod-issues.js';
import {
  AgentMessageSchema,
  type BatchWire,
  type ConsoleProtocol,
  consoleProtocol,
  type MessageSummary,
} from '../protocol.js';
import type { ConsoleHost } from './host-api.js';
import { ConsoleStore, DEFAULT_STORE_LIMITS, fullMessage, type StoreLimits, summarize } from './store.js';
import { consoleTools } from './tools.js';

export function createConsoleHost(
  ctx: HostPluginContext<ConsoleProtocol>,
  limits: StoreLimits = DEFAULT_STORE_LIMITS,
): ConsoleHost {
  const store = new ConsoleStore(limits);
  let connections = 0;
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
      const added = store.add(parsed.data);
      if (added) changed.set(added.entry.seq, summarize(added.entry));
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
    notifications: { batch: ingest },
    onConnect() {
      if (connections++ === 0) return;
      const page = ctx.session().device.page?.url;
      publish([summarize(store.mark('connected', page ? `Reconnected: ${page}` : 'The app reconnected'))]);
    },
    panel: {
      list: ({ afterSeq, limit }) => {
        const { entries, hasMore } = store.after(afterSeq ?? 0, limit);
        return { messages: entries.map(summarize), stats: store.stats(), hasMore };
      },
      get: ({ seq }) => {
        const e = store.get(seq);
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
