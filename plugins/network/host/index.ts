import { randomBytes } from 'node:crypto';
import type { Har } from 'har-format';
import type { z } from 'zod';
import type { DebugContribution } from '../../../shared/debug-bundle.js';
import { definePlugin, type HostPluginContext } from '../../../shared/host-plugin.js';
import { firstLoadOf } from '../../../shared/load-filter.js';
import {
  type TimelineEntry,
  type TimelinePage,
  type TimelineQuery,
  timelinePage,
  timelineSummary,
} from '../../../shared/timeline.js';
import { ToolArgumentError, ToolError } from '../../../shared/tool.js';
import { executeTool, parseToolArguments } from '../../../shared/tool-runner.js';
import { describeIssues } from '../../../shared/zod-issues.js';
import {
  type AgentInfo,
  type AgentView,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_REDACTION_RULES,
  EMPTY_MOCK_CONFIG,
  type InjectMessage,
  isFailure,
  type MessagePage,
  type MessageQuery,
  MessageQuerySchema,
  type MockConfig,
  MockConfigSchema,
  type MockConfigView,
  type MockRule,
  type MockRuleInput,
  MockRuleInputSchema,
  type MockRulePatch,
  MockRuleSchema,
  type MockRuleWithOptionalId,
  type MockSync,
  type NetworkEvent,
  type NetworkEventName,
  type NetworkProtocol,
  networkProtocol,
  type RedactionRules,
  RedactionRulesSchema,
  type ReplayRequest,
  type ReplayResult,
  type SocketMessageIn,
  type Transaction,
  type TransactionFilter,
} from '../protocol.js';
import { withFrames } from '../socketio.js';
import { fromHar, importedMessages, toHar } from './har.js';
import { MockSyncError, type NetworkHost, unknownTransaction } from './host-api.js';
import { LiveBodies } from './live-bodies.js';
import {
  DEFAULT_MESSAGE_LIMITS,
  CursorError as MessageCursorError,
  type MessageLimits,
  MessageStore,
} from './message-store.js';
import { describeRepair, type MockConfigRepair, salvageMockConfig } from './mock-config-file.js';
import { summarizeRule } from './mock-summary.js';
import { redactForAgent, redactMessage } from './redact.js';
import { replayTransaction, Settling } from './replay.js';
import { replayRequest } from './replay-tool.js';
import { searchTransactions } from './search.js';
import { toCurl, toFetch } from './snippets.js';
import { SseParser } from './sse.js';
import { getTransaction, networkTools } from './tools.js';

export type { NetworkHost } from './host-api.js';

import {
  type Change,
  DEFAULT_STORE_LIMITS,
  headerValue,
  type Page,
  type PageQuery,
  type StoreLimits,
  summarize,
  TransactionStore,
} from './transaction-store.js';

const CONFIG_KEY = 'mock-config';
const REDACTION_KEY = 'redaction-rules';

export interface NetworkHostOptions {
  limits?: Partial<StoreLimits>;
  messageLimits?: Partial<MessageLimits>;
}

/** Without the keys whose value is undefined: answers stay short and compare equal. */
const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
const rulesOn = (config: MockConfig) => config.enabled && config.rules.some((r) => r.enabled);

/** What a transaction still open when its app went away is closed as. */
export const APP_GONE = 'unknown: the app went away before it ended';

class NetworkHostImpl implements NetworkHost {
  private readonly store: TransactionStore;
  private info: AgentInfo | undefined;
  private readonly hits = new Map<string, number>();
  private sync: MockSync = { state: 'not-connected' };
  private queue: Promise<unknown> = Promise.resolve();
  private readonly appId: string;
  private readonly unwatch: () => void;
  private readonly unwatchRules: () => void;
  private rules: RedactionRules | undefined;
  private repaired: MockConfigRepair | undefined;
  private readonly settling = new Settling();
  private readonly messages: MessageStore;
  private readonly live: LiveBodies;

  constructor(
    private readonly ctx: HostPluginContext<NetworkProtocol>,
    options: NetworkHostOptions,
  ) {
    this.store = new TransactionStore({ ...DEFAULT_STORE_LIMITS, ...options.limits }, ctx.records);
    this.store.onDropped = ({ count }) => this.emitDropped(count);
    this.messages = new MessageStore({ ...DEFAULT_MESSAGE_LIMITS, ...options.messageLimits }, ctx.records);
    this.messages.onDropped = (id, count) => this.changed(this.store.countMessages(id, 0, 0, count));
    this.store.onGone = (id) => {
      this.messages.delete(id);
      this.live.end(id);
    };
    this.live = new LiveBodies({
      body: (id, part) => {
        const tx = this.store.get(id);
        const type = tx?.response && headerValue(tx.response.headers, 'content-type');
        this.changed(this.store.appendBody(id, part, type, this.info?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES));
      },
      events: (id, events, time) =>
        this.addMessages(
          id,
          events.map((e) => this.eventMessage(e, time)),
        ),
    });
    // Transactions a previous run of the inspector left open: their app may resume and end them.
    for (const change of this.store.closeOpen(APP_GONE)) this.changed(change);
    this.appId = ctx.session().app.id;
    // Another session of the same app changed the rules: this app gets them too.
    this.unwatch = ctx.store.watch<MockConfig>(CONFIG_KEY, (next) => {
      if (this.ctx.active) void this.enqueue(() => this.push(next)).catch(() => {});
      else this.emit('mock-config', this.mockConfig());
    });
    this.unwatchRules = ctx.store.watch<unknown>(REDACTION_KEY, () => {
      this.rules = undefined;
      this.emit('redaction-rules', this.redactionRules());
    });
  }

  private countHit(ruleId: string): void {
    this.hits.set(ruleId, (this.hits.get(ruleId) ?? 0) + 1);
  }

  get sessionId(): string {
    return this.ctx.sessionId;
  }

  readonly notifications = {
    agentInfo: (info: AgentInfo) => {
      this.info = info;
    },
    started: (n: Parameters<TransactionStore['started']>[0]) => {
      const sensitive = this.info?.redaction.scope === 'mcp' ? this.info.redaction.headers : undefined;
      if (n.mock) this.countHit(n.mock.ruleId);
      // Only worth saying when the inspector had rules this request may have missed.
      const missed = n.beforeRules && !n.mock && rulesOn(this.readConfig()) ? true : undefined;
      if (missed) this.sync = { ...this.sync, missed: (this.sync.missed ?? 0) + 1 };
      const load = this.ctx.session().load?.seq;
      this.changed(this.store.started({ ...n, beforeRules: missed }, sensitive, load));
    },
    requestSent: (n: Parameters<TransactionStore['requestSent']>[0]) => this.changed(this.store.requestSent(n)),
    response: (n: Parameters<TransactionStore['response']>[0]) => {
      if (n.mock && !this.store.get(n.id)?.mock) this.countHit(n.mock.ruleId);
      this.changed(this.store.response(n));
    },
    completed: (n: Parameters<TransactionStore['completed']>[0]) => {
      this.live.end(n.id);
      const change = this.store.completed(n);
      if (change) this.eventsFromBody(change.transaction);
      this.changed(change);
    },
    failed: (n: Parameters<TransactionStore['failed']>[0]) => {
      this.live.end(n.id);
      if (n.mock && !this.store.get(n.id)?.mock) this.countHit(n.mock.ruleId);
      this.changed(this.store.failed(n));
    },
    messages: ({ id, messages }: { id: string; messages: SocketMessageIn[] }) => this.addMessages(id, messages),
    chunk: (n: Parameters<LiveBodies['chunk']>[0]) => {
      const tx = this.store.get(n.id);
      if (!tx?.response || (tx.state !== 'pending' && tx.state !== 'unknown')) {
        if (!tx) this.store.orphans++;
        return;
      }
      const headers = tx.response.headers;
      this.live.chunk(n, {
        contentType: headerValue(headers, 'content-type'),
        contentEncoding: headerValue(headers, 'content-encoding'),
      });
    },
  };

  private addMessages(id: string, messages: SocketMessageIn[]): void {
    if (!this.store.get(id)) {
      this.store.orphans++;
      return;
    }
    let sent = 0;
    for (const m of messages) if (m.direction === 'sent') sent++;
    // Counted first: the store may drop the oldest of them at once (the per-connection bound).
    this.changed(this.store.countMessages(id, sent, messages.length - sent, 0));
    this.messages.add(id, messages);
  }

  /** An event stream's event as a message: kept to the agent's size for messages. */
  private eventMessage(e: { event?: string; data: string; id?: string; size: number }, time: number): SocketMessageIn {
    const cap = this.info?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const data = e.data.length > cap ? e.data.slice(0, cap) : e.data;
    return {
      direction: 'received',
      time,
      size: e.size,
      encoding: 'text',
      data,
      ...(data !== e.data ? { truncated: true } : {}),
      ...(e.event ? { event: e.event } : {}),
      ...(e.id !== undefined ? { eventId: e.id } : {}),
    };
  }

  /** An event stream that ended before its events were read as they came: they are read from its body. */
  private eventsFromBody(tx: Transaction): void {
    const body = tx.response?.body;
    if (tx.messages || body?.encoding !== 'text') return;
    if (!/^\s*text\/event-stream/i.test(body.contentType ?? headerValue(tx.response?.headers, 'content-type') ?? ''))
      return;
    const parser = new SseParser();
    const events = [...parser.push(body.data), ...parser.push('\n\n')];
    const end = tx.timing.startedAt + (tx.timing.durationMs ?? 0);
    if (events.length)
      this.addMessages(
        tx.id,
        events.map((e) => this.eventMessage(e, end)),
      );
  }

  /** For inspector_debug_bundle: the mock rules in force (the timeline already has the requests). */
  debugBundle(): DebugContribution {
    const config = this.mockConfig();
    if (config.rules.length === 0) return {};
    const enabled = config.rules.filter((rule) => rule.enabled);
    return {
      sections: {
        mocks: {
          enabled: config.enabled,
          rules: enabled.slice(0, 20).map((rule) => summarizeRule(rule, config)),
          ...(enabled.length > 20 ? { moreRules: enabled.length - 20 } : {}),
          disabledRules: config.rules.length - enabled.length,
        },
      },
    };
  }

  /** Requests by start time for the session's timeline: failed ones (an error, or 4xx/5xx) as errors. */
  timeline(query: TimelineQuery): TimelinePage {
    return timelinePage(this.store.all(), (tx) => tx.timing.startedAt, transactionEntry, query);
  }

  /** The panel's requests (protocol.ts, `panel.requests`): the same operations, unredacted. */
  readonly panel: NonNullable<NetworkHost['panel']> = {
    list: (query) => this.list(query),
    get: ({ id }) => ({ transaction: this.get(id) }),
    stats: () => this.stats(),
    clear: () => ({ cleared: this.clear() }),
    agentInfo: () => ({ info: this.info }),
    snippets: ({ id }) => {
      const tx = this.get(id);
      if (!tx) throw unknownTransaction(id);
      return { curl: toCurl(tx.request), fetch: toFetch(tx.request) };
    },
    mockConfig: () => this.mockConfig(),
    addMockRule: (input, signal) => this.addMockRule(input, signal),
    updateMockRule: ({ id, patch }, signal) => this.updateMockRule(id, patch, signal),
    removeMockRule: async ({ id }, signal) => ({ config: await this.removeMockRule(id, signal) }),
    setMockRules: async ({ rules }, signal) => ({ config: await this.setMockRules(rules, signal) }),
    setMockingEnabled: async ({ enabled }, signal) => ({ config: await this.setMockingEnabled(enabled, signal) }),
    // Exports leave the inspector: they are redacted as MCP results are.
    exportHar: ({ filter, ids }) =>
      this.exportHar(
        undefined,
        (ids ? ids.flatMap((id) => this.get(id) ?? []) : this.store.all(filter)).map((tx) => this.forAgent(tx)),
      ) as never,
    harEntry: ({ id }) => {
      const tx = this.get(id);
      if (!tx) throw unknownTransaction(id);
      return this.exportHar(undefined, [this.forAgent(tx)]).log.entries[0] as never;
    },
    search: (query, signal) => searchTransactions(this.store.all(), query, signal),
    agentView: ({ id }, signal) => this.agentView(id, signal),
    redactionRules: () => this.redactionRules(),
    setRedactionRules: (rules) => this.setRedactionRules(rules),
    importHar: ({ har, source }) => this.importHar(har, source),
    replay: (request, signal) => this.replay(request, signal),
    messages: (query) => {
      const page = this.listMessages(query);
      return { ...page, messages: withFrames(page.messages, this.store.get(query.transactionId)?.request.url) };
    },
    inject: (params, signal) => this.injectMessage(params, signal),
  };

  onConnect(): void {
    // A new load (or a reconnect) has not got the rules until it acknowledges them.
    const load = this.ctx.session().load?.seq;
    const missed = load === this.sync.load ? this.sync.missed : undefined;
    this.sync = defined({ state: 'pending', appliedRevision: this.sync.appliedRevision, load, missed });
    this.emit('mock-config', this.mockConfig());
    // Not awaited: other plugins' connect handlers need not wait for the debuggee's ack.
    void this.enqueue(() => this.push(this.readConfig())).catch(() => {});
  }

  onDisconnect(): void {
    this.sync = { ...this.sync, state: 'not-connected', error: undefined };
    this.emit('mock-config', this.mockConfig());
    this.live.clear();
    for (const change of this.store.closeOpen(APP_GONE)) this.changed(change);
  }

  dispose(): void {
    this.unwatch();
    this.unwatchRules();
    this.live.clear();
    this.messages.close();
    this.store.close();
  }

  listMessages(query: MessageQuery): MessagePage {
    const q = MessageQuerySchema.parse(query);
    const tx = this.store.get(q.transactionId);
    if (!tx) throw unknownTransaction(q.transactionId);
    try {
      return this.messages.page(tx.id, q, q.limit, q.cursor, tx.messages?.dropped ?? 0);
    } catch (e) {
      if (e instanceof MessageCursorError) throw new ToolArgumentError(e.message);
      throw e;
    }
  }

  messagesOf(id: string) {
    return [...this.messages.of(id)];
  }

  async injectMessage({ transactionId, data, base64 }: InjectMessage, signal?: AbortSignal) {
    const tx = this.store.get(transactionId);
    if (!tx) throw unknownTransaction(transactionId);
    if (tx.initiator !== 'websocket') {
      throw new ToolArgumentError(
        `${transactionId} is not a WebSocket (${tx.initiator} ${tx.request.method} ${tx.request.url}); network_list_transactions { urlContains: "ws" } finds them`,
      );
    }
    if (tx.state !== 'pending' || !this.ctx.active) {
      throw new ToolError(
        `the WebSocket ${transactionId} is not open (${tx.state}${tx.close ? `, closed ${tx.close.code}` : ''}); inject into an open one, or reopen it in the app`,
      );
    }
    return this.ctx.request('inject', { id: transactionId, data, base64 }, { signal });
  }

  list(query: PageQuery): Page {
    const sinceLoad = firstLoadOf(query.filter?.sinceLoad, this.ctx.session().load?.seq);
    return this.store.page({ ...query, filter: { ...query.filter, sinceLoad } });
  }

  transactions(filter?: TransactionFilter, urlOf?: (url: string) => string): Transaction[] {
    return this.store.all(filter, urlOf);
  }

  get(id: string): Transaction | undefined {
    return this.store.get(id);
  }

  clear(): number {
    this.live.clear();
    this.messages.clear();
    const cleared = this.store.clear();
    this.emit('cleared', { cleared });
    return cleared;
  }

  stats() {
    return this.store.stats();
  }

  agentInfo(): AgentInfo | undefined {
    return this.info;
  }

  redactionRules(): RedactionRules {
    if (this.rules) return this.rules;
    const stored = this.ctx.store.read<unknown>(REDACTION_KEY);
    if (stored === undefined) return (this.rules = DEFAULT_REDACTION_RULES);
    const parsed = RedactionRulesSchema.safeParse(stored);
    if (parsed.success) return (this.rules = parsed.data);
    const backup = this.ctx.store.backup(REDACTION_KEY, 'invalid');
    console.warn(
      `[porthole] network: the redaction rules of ${this.appId} were invalid (${describeIssues(parsed.error)}); the defaults apply until they are saved again from the window's Agent view${backup ? `, the bad file is kept at ${backup}` : ''}`,
    );
    return (this.rules = DEFAULT_REDACTION_RULES);
  }

  setRedactionRules(rules: RedactionRules): RedactionRules {
    const next = parse(RedactionRulesSchema, rules, 'redaction rules');
    this.ctx.store.write(REDACTION_KEY, next);
    this.rules = next;
    this.emit('redaction-rules', next);
    return next;
  }

  forAgent(tx: Transaction): Transaction {
    return redactForAgent(tx, this.redactionRules());
  }

  /** network_get_transaction's structuredContent for an MCP client: the tool itself, run as MCP runs it. */
  private async agentView(id: string, signal: AbortSignal): Promise<AgentView> {
    if (!this.get(id)) throw unknownTransaction(id);
    const args = parseToolArguments(getTransaction.name, getTransaction.input, { id });
    if (!args.ok) throw new Error(args.message);
    const ctx = { surface: 'mcp-http' as const, signal, instance: this, session: this.ctx.session() };
    const outcome = await executeTool(getTransaction, args.args, ctx);
    const result = outcome.result.structuredContent;
    if (!result) throw new Error(`network_get_transaction did not answer: ${outcome.result.textContent}`);
    return { rules: this.redactionRules(), result };
  }

  mockConfig(): MockConfigView {
    const view = { ...this.readConfig(), hits: Object.fromEntries(this.hits), sync: this.sync };
    return this.repaired ? { ...view, repaired: this.repaired } : view;
  }

  async addMockRule(input: MockRuleInput, signal?: AbortSignal) {
    const rule = parse(MockRuleSchema, { ...input, id: newRuleId() }, 'mock rule');
    const config = await this.change((c) => ({ ...c, rules: [...c.rules, rule] }), signal);
    return { rule, config };
  }

  async updateMockRule(id: string, patch: MockRulePatch, signal?: AbortSignal) {
    let updated: MockRule | undefined;
    const config = await this.change((c) => {
      const rules = c.rules.map((rule) => {
        if (rule.id !== id) return rule;
        updated = parse(MockRuleSchema, { ...rule, ...definedOnly(patch), id }, 'mock rule');
        return updated;
      });
      if (!updated) throw unknownRule(id);
      return { ...c, rules };
    }, signal);
    return { rule: updated as MockRule, config };
  }

  removeMockRule(id: string, signal?: AbortSignal): Promise<MockConfigView> {
    return this.change((c) => {
      if (!c.rules.some((r) => r.id === id)) throw unknownRule(id);
      return { ...c, rules: c.rules.filter((r) => r.id !== id) };
    }, signal);
  }

  setMockRules(rules: MockRuleWithOptionalId[], signal?: AbortSignal): Promise<MockConfigView> {
    const seen = new Set<string>();
    const parsed = rules.map((rule, i) => {
      const { id, ...input } = rule;
      const withId = parse(
        MockRuleSchema,
        { ...parse(MockRuleInputSchema, input, `rule ${i}`), id: id ?? newRuleId() },
        `rule ${i}`,
      );
      if (seen.has(withId.id)) throw new ToolArgumentError(`rule ${i}: the id "${withId.id}" is used twice`);
      seen.add(withId.id);
      return withId;
    });
    return this.change((c) => ({ ...c, rules: parsed }), signal);
  }

  setMockingEnabled(enabled: boolean, signal?: AbortSignal): Promise<MockConfigView> {
    return this.change((c) => ({ ...c, enabled }), signal);
  }

  exportHar(filter?: TransactionFilter, transactions = this.store.all(filter)): Har {
    const session = this.ctx.session();
    const rules = this.redactionRules();
    // Exports leave the inspector: messages are redacted as bodies are.
    return toHar(
      transactions,
      { name: 'Porthole', version: networkProtocol.version },
      `${session.app.name} (${session.app.id}) on ${session.device.name}, session ${session.id}`,
      (id) => this.messagesOf(id).map((m) => redactMessage(m, rules)),
    );
  }

  saveExport(fileName: string, data: string): { path: string; bytes: number } {
    return this.ctx.saveExport(fileName, data);
  }

  readUserFile(path: string, maxBytes: number, what: string): Promise<string> {
    return this.ctx.readUserFile(path, maxBytes, what);
  }

  importHar(har: unknown, source = 'HAR file'): { imported: number } {
    const entries = fromHar(har, source);
    for (const tx of entries) {
      this.changed(this.store.add(tx));
      const messages = importedMessages.get(tx);
      for (let at = 0; messages && at < messages.length; at += 1000)
        this.addMessages(tx.id, messages.slice(at, at + 1000));
    }
    this.emit('imported', { count: entries.length });
    return { imported: entries.length };
  }

  replay(request: ReplayRequest, signal?: AbortSignal): Promise<ReplayResult> {
    return replayTransaction(
      { ctx: this.ctx, get: (id) => this.store.get(id), settling: this.settling },
      request,
      signal,
    );
  }

  // ─── mock config sync ──────────────────────────────────────────────────────

  private readConfig(): MockConfig {
    const stored = this.ctx.store.read<unknown>(CONFIG_KEY);
    if (stored === undefined) return EMPTY_MOCK_CONFIG;
    const parsed = MockConfigSchema.safeParse(stored);
    if (parsed.success) return parsed.data;
    // Keep every valid rule, the bad file beside, and say what went.
    const { config, dropped } = salvageMockConfig(stored);
    const backup = this.ctx.store.backup(CONFIG_KEY, 'invalid');
    this.ctx.store.write(CONFIG_KEY, config);
    this.repaired = { kept: config.rules.length, dropped, backup };
    console.warn(`[porthole] network: ${describeRepair(this.appId, this.repaired)}`);
    return config;
  }

  /**
   * One change at a time per session: the new config is pushed to the debuggee first and saved only
   * when it acks; a refused or unanswered push throws MockSyncError and nothing is saved.
   */
  private change(mutate: (config: MockConfig) => MockConfig, signal?: AbortSignal): Promise<MockConfigView> {
    return this.enqueue(async () => {
      const current = this.readConfig();
      const next = parse(MockConfigSchema, { ...mutate(current), revision: current.revision + 1 }, 'mock config');
      if (this.ctx.active) {
        try {
          await this.push(next, signal, true);
        } catch (e) {
          // The debuggee may have applied it and lost the ack: put the saved config back.
          void this.enqueue(() => this.push(current)).catch(() => {});
          throw e;
        }
      }
      this.ctx.store.write(CONFIG_KEY, next);
      const view = this.mockConfig();
      this.emit('mock-config', view);
      return view;
    });
  }

  /** Sends the whole config; records the outcome and tells the window. Throws MockSyncError when not applied. */
  private async push(config: MockConfig, signal?: AbortSignal, strict = false): Promise<void> {
    if (!this.ctx.active) {
      this.sync = { ...this.sync, state: 'not-connected' };
      return;
    }
    try {
      const { revision } = await this.ctx.request('setMockConfig', config, { signal });
      if (revision !== config.revision)
        throw new Error(`the app acknowledged revision ${revision}, not ${config.revision}`);
      this.sync = defined({
        state: 'applied',
        appliedRevision: revision,
        load: this.sync.load,
        missed: this.sync.missed,
      });
      if (!strict) this.emit('mock-config', this.mockConfig());
    } catch (e) {
      const reason = (e as Error).message;
      this.sync = { ...this.sync, state: 'failed', error: reason };
      this.emit('mock-sync-failed', { revision: config.revision, error: reason });
      this.emit('mock-config', this.mockConfig());
      throw new MockSyncError(reason);
    }
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => {});
    return run;
  }

  // ─── window events ─────────────────────────────────────────────────────────

  /**
   * Transactions changed since the window was last told, by id, with their first change: told once a
   * turn as they are then (a request's start, response and end come in one batch from the app, and
   * the window needs its row once), before any other event, so the window sees them in order.
   */
  private readonly untold = new Map<string, { change: Change['change']; transaction: Transaction }>();

  private changed(change: Change | undefined): void {
    if (!change) return;
    this.settling.changed(change.transaction);
    const waiting = this.untold.get(change.transaction.id);
    if (waiting) waiting.transaction = change.transaction;
    else {
      if (this.untold.size === 0) queueMicrotask(this.tell);
      this.untold.set(change.transaction.id, { change: change.change, transaction: change.transaction });
    }
    if (change.dropped) this.emitDropped(change.dropped);
  }

  private readonly tell = (): void => {
    const changes = [...this.untold.values()];
    this.untold.clear();
    for (const { change, transaction } of changes)
      this.ctx.emit('transaction', { change, transaction: summarize(transaction) });
  };

  private emitDropped(count: number): void {
    const { count: totalDropped, bytes: totalBytes } = this.store.droppedTotal;
    this.emit('dropped', { count, totalDropped, totalBytes });
  }

  private emit<N extends NetworkEventName>(event: N, data: NetworkEvent<N>): void {
    if (this.untold.size > 0) this.tell();
    this.ctx.emit(event, data);
  }
}

function newRuleId(): string {
  return `rule-${randomBytes(5).toString('hex')}`;
}

function unknownRule(id: string): ToolArgumentError {
  return new ToolArgumentError(`there is no mock rule "${id}"; network_get_mock_config lists the rules and their ids`);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ToolArgumentError(`invalid ${what}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

export function createNetworkHost(
  ctx: HostPluginContext<NetworkProtocol>,
  options: NetworkHostOptions = {},
): NetworkHost {
  return new NetworkHostImpl(ctx, options);
}

export default definePlugin({
  protocol: networkProtocol,
  title: 'Network',
  create: (ctx) => createNetworkHost(ctx),
  tools: [...networkTools, replayRequest],
});

function transactionEntry(tx: Transaction): TimelineEntry {
  const status = tx.response?.status;
  const failed = isFailure(tx.state, status, tx.graphql, tx.grpc);
  const outcome =
    tx.state === 'failed' || tx.state === 'unknown'
      ? `${tx.state === 'failed' ? 'failed: ' : ''}${tx.error?.message ?? 'error'}`
      : tx.graphql?.errors
        ? `${status} with ${tx.graphql.errors} GraphQL errors`
        : tx.grpc?.status
          ? `${status} with gRPC status ${tx.grpc.status}${tx.grpc.message ? ` (${tx.grpc.message})` : ''}`
          : tx.close
            ? `closed ${tx.close.code}`
            : (status ?? 'pending');
  const what = tx.graphql ? ` (${[tx.graphql.type, tx.graphql.name].filter(Boolean).join(' ')})` : '';
  const messages = tx.messages ? `, ${tx.messages.sent + tx.messages.received} messages` : '';
  return {
    time: tx.timing.startedAt,
    ...(tx.timing.durationMs !== undefined ? { end: tx.timing.startedAt + tx.timing.durationMs } : {}),
    ...(tx.state === 'pending' ? { pending: true } : {}),
    plugin: 'network',
    kind: 'request',
    level: failed ? 'error' : tx.state === 'unknown' ? 'warn' : 'info',
    ref: tx.id,
    summary: timelineSummary(`${tx.request.method} ${tx.request.url}${what} → ${outcome}${messages}`),
  };
}
