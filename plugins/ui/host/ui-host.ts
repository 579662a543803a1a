import type { HostPluginContext, HostPluginInstance } from '../../../shared/host-plugin.js';
import { imageMismatch } from '../../../shared/image-bytes.js';
import { RequestError } from '../../../shared/protocol/messenger.js';
import type { RecordStore } from '../../../shared/records.js';
import { plainSerialized, type SerializedValue } from '../../../shared/serialized-value.js';
import { type TimelineEntry, timelinePage, timelineSummary } from '../../../shared/timeline.js';
import { ToolError } from '../../../shared/tool.js';
import { ToolResult } from '../../../shared/tool-result.js';
import { describeRequestError } from '../../../shared/tool-runner.js';
import { outlineLine, pageLine } from '../outline.js';
import type {
  ActionEntry,
  ActParams,
  ActResult,
  Change,
  EvaluateResult,
  PageState,
  PanelNode,
  SnapshotResult,
  UiNode,
  UiProtocol,
} from '../protocol.js';
import { type Load, RefTable } from './refs.js';

/** Outline characters a snapshot answers with by default (about 12 KB). */
export const DEFAULT_SNAPSHOT_CHARS = 11_500;
/** With an explicit limit, still at most this (answers stay under 25 KB). */
export const MAX_SNAPSHOT_CHARS = 23_000;
const DEFAULT_LIMIT = 400;
/** How long an act waits for the requests it started before answering. */
const SETTLE_MS = 3000;
const LOAD_TIMEOUT_MS = 15_000;
const QUIET_MS = 500;
const LOG_COUNT = 500;
const LOG_BYTES = 2 * 1024 * 1024;

export interface SnapshotArgs {
  ref?: string;
  text?: string;
  depth?: number;
  limit?: number;
}
export interface ActArgs {
  ref?: string;
  action: ActParams['action'];
  value?: string | string[];
  submit?: boolean;
  dialog?: 'accept' | 'dismiss';
}
export interface WaitArgs {
  text?: string;
  ref?: string;
  gone?: boolean;
  request?: string;
  networkIdle?: boolean;
  timeoutMs: number;
}
/** Who asked: an MCP client, the window's tool runner, or the person replaying from the panel. */
export type Caller = string;

export interface Outline {
  page: PageState & { load?: number };
  nodes: PanelNode[];
  more: number;
  matches?: number;
  ms: number;
}

export interface UiHost extends HostPluginInstance<UiProtocol> {
  /** The app-side time of the last act (its events, handlers and description), ms. */
  lastActMs(): number | undefined;
  snapshot(args: SnapshotArgs, signal?: AbortSignal): Promise<string>;
  outline(args: SnapshotArgs & { maxChars: number }, signal?: AbortSignal): Promise<Outline>;
  act(args: ActArgs, caller: Caller, signal?: AbortSignal, replay?: ActionEntry): Promise<string>;
  navigate(to: string, timeoutMs: number, caller: Caller, signal?: AbortSignal): Promise<string>;
  waitFor(args: WaitArgs, signal?: AbortSignal): Promise<string>;
  evaluate(expression: string, timeoutMs: number, caller: Caller, signal?: AbortSignal): Promise<ToolResult>;
  screenshot(args: { ref?: string; fullPage?: boolean }, signal?: AbortSignal): Promise<ToolResult>;
  /** The actions taken in this session, oldest first. */
  log(): ActionEntry[];
}

export function createUiHost(ctx: HostPluginContext<UiProtocol>): UiHost {
  const refs = new RefTable(ctx.sessionId);
  const log: RecordStore<ActionEntry> = ctx.records.open('actions', {
    maxCount: LOG_COUNT,
    maxBytes: LOG_BYTES,
    persist: true,
  });
  let seq = 0;
  for (const [key] of log.entries()) seq = Math.max(seq, Number(key) + 1 || 0);
  let page: (PageState & { loadId: string }) | undefined;
  let lastActionAt: number | undefined;
  let lastActMs: number | undefined;
  let watchUntil = 0;
  let watchTimer: ReturnType<typeof setTimeout> | undefined;

  // Waiting for the app: woken by what it reports, the session's timeline, and a slow tick.
  const wakers = new Set<() => void>();
  const wake = () => {
    for (const w of [...wakers]) w();
  };
  const offTimeline = ctx.timeline.onChange(wake);
  const until = <T>(check: () => T | undefined, timeoutMs: number, signal?: AbortSignal): Promise<T | undefined> => {
    const first = check();
    if (first !== undefined) return Promise.resolve(first);
    return new Promise((resolve) => {
      const finish = (value: T | undefined) => {
        wakers.delete(poke);
        clearTimeout(timer);
        clearInterval(tick);
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      };
      const poke = () => {
        const value = check();
        if (value !== undefined) finish(value);
      };
      const onAbort = () => finish(undefined);
      const timer = setTimeout(() => finish(undefined), timeoutMs);
      const tick = setInterval(poke, 100);
      wakers.add(poke);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  };

  const load = (): Load => {
    const l = ctx.session().load;
    return l ? { id: l.id, seq: l.seq } : { id: 'none', seq: 0 };
  };
  const ready = () => {
    const l = load();
    return ctx.active && page?.loadId === l.id && page.readyState === 'complete' ? page : undefined;
  };

  const request = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (e) {
      if (e instanceof RequestError && e.code === 'cancelled') throw e;
      throw new ToolError(
        `${what}: ${e instanceof RequestError ? describeRequestError(e, ctx.sessionId) : (e as Error).message}`,
      );
    }
  };
  const noUi = () => {
    if (page?.runtime === 'none') {
      throw new ToolError(
        'this app has no UI to see or act on: it runs without a DOM (a Node process). Read its state with ui_evaluate, run the debug actions it declares with actions_list / actions_run, and watch it with the network_* and console_* tools',
      );
    }
  };

  const toPanel = (node: UiNode, l: Load): PanelNode => {
    const { id, ...rest } = node;
    return id === undefined ? rest : { ...rest, ref: refs.ref(l, id) };
  };
  const line = (node: UiNode, l: Load, indent?: number) => outlineLine(toPanel(node, l), indent);

  const outline = async (args: SnapshotArgs & { maxChars: number }, signal?: AbortSignal): Promise<Outline> => {
    noUi();
    const l = load();
    const root = args.ref ? refs.resolve(args.ref, l) : undefined;
    const result: SnapshotResult = await request('the app could not take a snapshot', () =>
      ctx.request(
        'snapshot',
        {
          ...(root !== undefined ? { root } : {}),
          ...(args.text ? { text: args.text } : {}),
          ...(args.depth !== undefined ? { depth: args.depth } : {}),
          limit: args.limit ?? DEFAULT_LIMIT,
          maxChars: args.maxChars,
        },
        { signal, timeoutMs: 15_000 },
      ),
    );
    const after = load();
    return {
      page: { ...result.page, runtime: page?.runtime ?? 'dom', load: after.seq || undefined },
      nodes: result.nodes.map((n) => toPanel(n, after)),
      more: result.more,
      matches: result.matches,
      ms: result.ms,
    };
  };

  const record = (entry: Omit<ActionEntry, 'seq'>): ActionEntry => {
    const full: ActionEntry = { ...entry, seq: seq++, result: entry.result.slice(0, 4000) };
    log.set(String(full.seq), full);
    ctx.emit('action', full);
    return full;
  };

  /** Network requests and console errors since `since`, from the session's timeline. */
  const caused = (since: number) => {
    const entries = ctx.timeline.query({ since, plugins: ['network', 'console'], limit: 200 }).entries;
    return {
      requests: entries.filter((e) => e.plugin === 'network'),
      errors: entries.filter((e) => e.plugin === 'console' && e.level === 'error'),
    };
  };
  const pendingSince = (since: number) => caused(since).requests.filter((e) => e.pending);

  /** Waits for the session's next load (after `before`) to fire its load event. */
  const nextLoad = async (before: Load, timeoutMs: number, signal?: AbortSignal) => {
    const loaded = await until(() => (load().id !== before.id ? ready() : undefined), timeoutMs, signal);
    if (loaded) return { load: load(), page: loaded };
    if (signal?.aborted) throw new RequestError('cancelled', 'cancelled');
    const now = load();
    if (!ctx.active) {
      throw new ToolError(
        `the page did not come back within ${seconds(timeoutMs)}: the app has not reconnected since it left ${page?.url ?? 'its page'}. If the new page is another app (another app id), it has a session of its own: find it with inspector_list_sessions. A page without Porthole's agent (another site, an error page) cannot be followed`,
      );
    }
    if (now.id === before.id) {
      throw new ToolError(
        `no new page load within ${seconds(timeoutMs)}: the app is still on load ${now.seq} (${page?.url ?? ''}). Take a snapshot (ui_snapshot) to see where it is`,
      );
    }
    const pending = pendingSince(0).slice(0, 5);
    throw new ToolError(
      `the page did not finish loading within ${seconds(timeoutMs)}: it reconnected as load ${now.seq} (${page?.url ?? ''}) but its load event has not fired (document.readyState "${page?.loadId === now.id ? page.readyState : 'loading'}")${
        pending.length ? `; still pending: ${pending.map((e) => e.summary).join('; ')}` : ''
      }. It may wait for a slow resource: ui_snapshot shows what it shows now, ui_wait_for waits for what you need`,
    );
  };

  /** The requests and console errors of a span, in a few lines. */
  const report = (since: number): string[] => {
    const { requests, errors } = caused(since);
    const lines: string[] = [];
    if (requests.length) {
      const failed = requests.filter((e) => e.level === 'error');
      const pending = requests.filter((e) => e.pending);
      const shown = [...failed, ...pending, ...requests.filter((e) => e.level !== 'error' && !e.pending)].slice(0, 8);
      lines.push(
        `requests: ${requests.length}${failed.length ? `, ${failed.length} failed` : ''}${pending.length ? `, ${pending.length} pending` : ''}`,
        ...shown.map((e) => `  ${e.summary} [${e.ref}]`),
      );
      if (requests.length > shown.length)
        lines.push(`  … ${requests.length - shown.length} more (network_list_transactions)`);
    }
    if (errors.length) {
      lines.push(
        `console errors: ${errors.length}`,
        ...errors.slice(0, 5).map((e) => `  ${e.summary} [console ${e.ref}]`),
      );
    }
    return lines;
  };

  /** Settles what an act started: its requests done (or SETTLE_MS), then the page's later changes. */
  const settle = async (
    since: number,
    signal?: AbortSignal,
  ): Promise<{ changes: Change[]; more: number } | undefined> => {
    // No request started: the app stops watching by itself. Otherwise it holds until settle, and
    // what the answers rendered (even of requests already done) belongs to this act.
    if (caused(since).requests.length === 0) return undefined;
    if (ctx.active) ctx.notify('hold', {});
    await until(() => (pendingSince(since).length === 0 ? true : undefined), SETTLE_MS, signal);
    if (!ctx.active) return undefined;
    try {
      const later = await ctx.request('settle', {}, { signal });
      return { changes: later.changes, more: later.moreChanges };
    } catch {
      return undefined;
    }
  };

  const act = async (args: ActArgs, caller: Caller, signal?: AbortSignal, replay?: ActionEntry): Promise<string> => {
    noUi();
    const before = load();
    let target: ActParams['target'];
    if (args.ref) {
      try {
        target = { id: refs.resolve(args.ref, before) };
      } catch (e) {
        // A replay from the window finds its element again by role and name.
        if (!replay?.target) throw e;
        target = { role: replay.target.role, name: replay.target.name };
      }
    }
    const params: ActParams = { action: args.action };
    if (target) params.target = target;
    if (args.value !== undefined) params.value = args.value;
    if (args.submit) params.submit = true;
    if (args.dialog) params.dialog = args.dialog;
    const what = `${args.action}${args.ref ? ` ${args.ref}` : ''}`;
    const started = Date.now();
    lastActionAt = started;
    let result: ActResult | undefined;
    let gone = false;
    try {
      result = await ctx.request('act', params, { signal, timeoutMs: 15_000 });
      lastActMs = result.ms;
    } catch (e) {
      if (e instanceof RequestError && e.code === 'peer-gone') gone = true;
      else {
        const message = e instanceof RequestError ? refMessage(args.ref, e, ctx.sessionId) : (e as Error).message;
        record({
          time: started,
          end: Date.now(),
          tool: 'act',
          summary: what,
          args: { ...args },
          ok: false,
          result: message,
          surface: caller,
          load: before.seq || undefined,
        });
        if (e instanceof RequestError && e.code === 'cancelled') throw e;
        throw new ToolError(`${what} failed: ${message}`);
      }
    }
    const l = load();
    const targetLine = result?.target ? line(result.target, l, 0) : undefined;
    const summary = `${args.action}${targetLine ? ` ${targetLine}` : args.ref ? ` ${args.ref}` : ''}`;
    const entryBase = {
      time: started,
      tool: 'act' as const,
      summary: timelineSummary(summary).slice(0, 400),
      args: { ...args } as unknown as ActionEntry['args'],
      ...(result?.target && result.target.role !== 'text'
        ? { target: { role: result.target.role, ...(result.target.name ? { name: result.target.name } : {}) } }
        : replay?.target
          ? { target: replay.target }
          : {}),
      surface: caller,
      load: before.seq || undefined,
    };
    if (result?.refused) {
      const { by: hit, within } = result.refused;
      const by = hit ? ` In the way: ${line(hit, l, 0)}${within ? ` (in ${line(within, l, 0)})` : ''}` : '';
      const message = `${what} was not done: ${result.refused.reason}.${by}`;
      record({ ...entryBase, end: Date.now(), ok: false, result: message });
      throw new ToolError(message);
    }
    const lines: string[] = [`${summary}: done`];
    const changes = result ? [...result.changes] : [];
    let moreChanges = result?.moreChanges ?? 0;
    const dialogs = result ? [...result.dialogs] : [];
    let navigated: { load: Load; page: PageState } | undefined;
    if (gone || result?.unloading) {
      navigated = await nextLoad(before, LOAD_TIMEOUT_MS, signal);
    } else {
      const later = await settle(result?.startedAt ?? started, signal);
      if (later) {
        changes.push(...later.changes);
        moreChanges += later.more;
      }
      if (load().id !== before.id) navigated = await nextLoad(before, LOAD_TIMEOUT_MS, signal);
    }
    if (navigated) {
      lines.push(
        `the page loaded ${navigated.page.url} (load ${navigated.load.seq}): old refs are gone, take a new snapshot`,
      );
    } else {
      if (result?.note) lines.push(`note: ${result.note}`);
      for (const c of changes) lines.push(`${c.op} ${line(c, l)}`);
      if (moreChanges) lines.push(`… ${moreChanges} more changes (ui_snapshot shows the page)`);
      if (result?.focused) lines.push(`focus: ${line(result.focused, l, 0)}`);
      if (result?.scroll) lines.push(`scrolled to x=${Math.round(result.scroll.x)} y=${Math.round(result.scroll.y)}`);
      if (result && result.url !== result.urlBefore) lines.push(`url: ${result.url} (was ${result.urlBefore})`);
      if (changes.length === 0 && !result?.focused && !result?.note && !result?.scroll) lines.push('no visible change');
    }
    for (const d of dialogs) lines.push(`dialog: ${d.type} ${JSON.stringify(d.message)} → ${d.answer}`);
    lines.push(...report(result?.startedAt ?? started));
    const text = lines.join('\n');
    record({ ...entryBase, end: Date.now(), ok: true, result: text });
    return text;
  };

  const navigate = async (to: string, timeoutMs: number, caller: Caller, signal?: AbortSignal): Promise<string> => {
    noUi();
    const before = load();
    const from = page?.url;
    const started = Date.now();
    lastActionAt = started;
    const entry = {
      time: started,
      tool: 'navigate' as const,
      summary: timelineSummary(to === 'reload' || to === 'back' || to === 'forward' ? to : `go to ${to}`),
      args: { to },
      surface: caller,
      load: before.seq || undefined,
    };
    try {
      let answer: { from: string; url?: string; sameDocument?: boolean } = { from: from ?? '' };
      try {
        answer = await ctx.request('navigate', { to }, { signal, timeoutMs: 10_000 });
      } catch (e) {
        // The page may leave before its answer does.
        if (!(e instanceof RequestError && e.code === 'peer-gone')) throw e;
      }
      const history = to === 'back' || to === 'forward';
      let text: string;
      if (answer.sameDocument || history) {
        const moved = await until(
          () => (load().id !== before.id ? 'load' : page && page.url !== answer.from ? 'same' : undefined),
          history ? Math.min(timeoutMs, 3000) : timeoutMs,
          signal,
        );
        if (moved === undefined) {
          throw new ToolError(
            history
              ? `${to}: the page did not move (there may be no ${to === 'back' ? 'earlier' : 'later'} page in this tab's history); it is still at ${answer.from}`
              : `the page did not move to ${answer.url}: it is still at ${page?.url}`,
          );
        }
        if (moved === 'same') {
          text = `${to === 'back' || to === 'forward' ? to : 'went'} to ${page?.url} in the same document (load ${before.seq}): refs stay valid`;
          record({ ...entry, end: Date.now(), ok: true, result: text });
          return text;
        }
      }
      const next = await nextLoad(before, timeoutMs, signal);
      // The new load's own requests (its clock: since it began), given a moment to finish.
      const loadStart = ctx.session().load?.startedAt ?? started;
      await until(() => (pendingSince(loadStart).length === 0 ? true : undefined), 2000, signal);
      const lines = [
        `${to === 'reload' ? 'reloaded' : to === 'back' || to === 'forward' ? `went ${to} to` : 'loaded'} ${next.page.url} (load ${next.load.seq}, ${Date.now() - started} ms): "${next.page.title}". Old refs are gone: take a new snapshot`,
        ...report(loadStart),
      ];
      text = lines.join('\n');
      record({ ...entry, end: Date.now(), ok: true, result: text });
      return text;
    } catch (e) {
      const message = e instanceof RequestError ? describeRequestError(e, ctx.sessionId) : (e as Error).message;
      record({ ...entry, end: Date.now(), ok: false, result: message });
      if (e instanceof RequestError && e.code === 'cancelled') throw e;
      throw e instanceof ToolError ? e : new ToolError(`${entry.summary} failed: ${message}`);
    }
  };

  const waitFor = async (args: WaitArgs, signal?: AbortSignal): Promise<string> => {
    const kinds = [
      args.text !== undefined,
      args.ref !== undefined,
      args.request !== undefined,
      args.networkIdle === true,
    ];
    const count = kinds.filter(Boolean).length;
    if (count !== 1) {
      throw new ToolError(
        `ui_wait_for waits for one thing: give exactly one of text, ref, request or networkIdle (got ${count})`,
      );
    }
    const started = Date.now();
    if (args.text !== undefined || args.ref !== undefined) {
      noUi();
      const l = load();
      const id = args.ref ? refs.resolve(args.ref, l) : undefined;
      const what = args.ref ? `ref ${args.ref}` : `text ${JSON.stringify(args.text)}`;
      const result = await request(`waiting for ${what}`, () =>
        ctx.request(
          'waitFor',
          {
            ...(id !== undefined ? { target: { id } } : {}),
            ...(args.text !== undefined ? { text: args.text } : {}),
            gone: args.gone === true,
            timeoutMs: args.timeoutMs,
          },
          { signal, timeoutMs: args.timeoutMs + 5000 },
        ),
      );
      if (!result.met) {
        throw new ToolError(
          `timed out after ${seconds(args.timeoutMs)} waiting for ${what} to ${args.gone ? 'go away' : 'appear'}. The page shows: ${result.seen ?? '(nothing)'}`,
        );
      }
      const found = result.node ? `: ${line(result.node, load(), 0)}` : '';
      return `${what} ${args.gone ? 'is gone' : 'appeared'} after ${Math.round(result.ms)} ms${found}`;
    }
    const since = lastActionAt ?? started;
    if (args.request !== undefined) {
      const needle = args.request.toLowerCase();
      const matching = () => caused(since).requests.find((e) => !e.pending && e.summary.toLowerCase().includes(needle));
      const found = await until(matching, args.timeoutMs, signal);
      if (!found) {
        const seen = caused(since).requests.slice(-8);
        throw new ToolError(
          `timed out after ${seconds(args.timeoutMs)}: no request matching ${JSON.stringify(args.request)} completed since ${lastActionAt ? 'the last ui_act/ui_navigate' : 'the call'}. Seen: ${
            seen.length ? seen.map((e) => `${e.summary}${e.pending ? ' (pending)' : ''}`).join('; ') : 'no requests'
          }`,
        );
      }
      return `completed after ${Date.now() - started} ms: ${found.summary} [${found.ref}]`;
    }
    let quietSince: number | undefined;
    const idle = await until(
      () => {
        if (pendingSince(since).length > 0) {
          quietSince = undefined;
          return undefined;
        }
        quietSince ??= Date.now();
        return Date.now() - quietSince >= QUIET_MS ? true : undefined;
      },
      args.timeoutMs,
      signal,
    );
    if (!idle) {
      const pending = pendingSince(since);
      throw new ToolError(
        `timed out after ${seconds(args.timeoutMs)}: the network is not idle; still pending: ${pending
          .slice(0, 8)
          .map((e) => `${e.summary} [${e.ref}] since ${Math.round((Date.now() - e.time) / 1000)} s`)
          .join('; ')}`,
      );
    }
    const { requests } = caused(since);
    const failed = requests.filter((e) => e.level === 'error');
    return `the network is idle (after ${Date.now() - started} ms): ${requests.length} requests since ${lastActionAt ? 'the last ui_act/ui_navigate' : 'the call'}${
      failed.length
        ? `, ${failed.length} failed: ${failed
            .slice(0, 5)
            .map((e) => `${e.summary} [${e.ref}]`)
            .join('; ')}`
        : ''
    }`;
  };

  const evaluate = async (
    expression: string,
    timeoutMs: number,
    caller: Caller,
    signal?: AbortSignal,
  ): Promise<ToolResult> => {
    const started = Date.now();
    const entry = {
      time: started,
      tool: 'evaluate' as const,
      summary: timelineSummary(`evaluate ${expression}`).slice(0, 400),
      args: { expression, timeoutMs },
      surface: caller,
      load: load().seq || undefined,
    };
    const fail = (message: string): never => {
      record({ ...entry, end: Date.now(), ok: false, result: message });
      throw new ToolError(message);
    };
    let result: EvaluateResult;
    try {
      result = await ctx.request('evaluate', { expression, timeoutMs }, { signal, timeoutMs: timeoutMs + 3000 });
    } catch (e) {
      if (e instanceof RequestError && e.code === 'cancelled') throw e;
      if (e instanceof RequestError && e.code === 'timeout') {
        return fail(
          `the app did not answer within ${seconds(timeoutMs + 3000)}: the code may be running a busy loop, which holds the app's thread (a page cannot stop it; a Node app stops it at the timeout). When the app answers again, reload it (ui_navigate "reload") or restart it`,
        );
      }
      return fail(
        `the app could not evaluate it: ${e instanceof RequestError ? describeRequestError(e, ctx.sessionId) : (e as Error).message}`,
      );
    }
    if (result.compileError) return fail(`could not run the code: ${result.compileError}`);
    if (result.timedOut) {
      return fail(
        `the value did not settle within ${seconds(timeoutMs)} (a promise that never settles, or a loop stopped at the timeout); anything it started may still run in the app. Make it settle sooner, or raise timeoutMs`,
      );
    }
    if (result.thrown !== undefined) return fail(`the code threw: ${thrownText(result.thrown as SerializedValue)}`);
    const value = plainSerialized(result.value as SerializedValue);
    const answer = { value, ms: Math.round(result.ms * 10) / 10 };
    record({ ...entry, end: Date.now(), ok: true, result: timelineSummary(JSON.stringify(value) ?? 'undefined') });
    return ToolResult.json(answer);
  };

  const screenshot = async ({ ref, fullPage }: { ref?: string; fullPage?: boolean }, signal?: AbortSignal) => {
    const id = ref ? refs.resolve(ref, load()) : undefined;
    const shot = await request('the app could not take a screenshot', () =>
      ctx.request(
        'screenshot',
        { ...(id !== undefined ? { id } : {}), ...(fullPage ? { fullPage } : {}) },
        { signal, timeoutMs: fullPage ? 60_000 : 30_000 },
      ),
    );
    // A label the bytes do not bear out would be handed to an agent (and shown) as what it is not.
    const mismatch = imageMismatch(shot.base64, shot.mimeType);
    if (mismatch) {
      throw new ToolError(
        `the app's screenshot was refused: ${mismatch}; a ui({ screenshot }) hook must return the image's own mimeType (image/png, image/jpeg or image/webp)`,
      );
    }
    const size = shot.width && shot.height ? ` (${shot.width}×${shot.height})` : '';
    const what = ref ? `${ref} of ` : fullPage ? 'the whole page of ' : '';
    const cut = shot.pageHeight
      ? `; the top of a page ${shot.pageHeight} px tall: scroll (ui_act scroll) and take the viewport for the rest`
      : '';
    return ToolResult.image(shot.base64, shot.mimeType, `Screenshot of ${what}${ctx.session().app.name}${size}${cut}`);
  };

  const setWatch = (on: boolean) => {
    if (!ctx.active) return;
    ctx.request('watch', { on }).catch(() => {});
  };

  return {
    notifications: {
      page(state) {
        page = { ...state, loadId: load().id };
        ctx.emit('page', { ...state, load: load().seq || undefined });
        wake();
      },
      changed() {
        ctx.emit('changed', {});
      },
    },
    onConnect() {
      if (Date.now() < watchUntil) setWatch(true);
      wake();
    },
    onDisconnect: wake,
    dispose() {
      offTimeline();
      clearTimeout(watchTimer);
      wakers.clear();
    },
    timeline: (query) => timelinePage([...log.values()], (e) => e.time, actionEntry, query),
    panel: {
      snapshot: async ({ ref, text, depth }, signal) => {
        const o = await outline({ ref, text, depth, limit: 3000, maxChars: 400_000 }, signal);
        return { page: o.page, nodes: o.nodes, more: o.more, runtime: o.page.runtime };
      },
      highlight: ({ ref }) => {
        if (!ctx.active) return {};
        let id: number | undefined;
        try {
          id = ref ? refs.resolve(ref, load()) : undefined;
        } catch {
          id = undefined;
        }
        ctx.notify('highlight', id === undefined ? {} : { id });
        return {};
      },
      watch: () => {
        const was = Date.now() < watchUntil;
        watchUntil = Date.now() + 15_000;
        if (!was) setWatch(true);
        clearTimeout(watchTimer);
        watchTimer = setTimeout(() => {
          if (Date.now() >= watchUntil) setWatch(false);
        }, 15_500);
        return {};
      },
      actions: () => ({ entries: [...log.values()] }),
      replay: async ({ seq: which }, signal) => {
        const entry = log.get(String(which));
        if (!entry) throw new ToolError(`there is no action ${which} in this session's log`);
        const caller = 'window';
        const args = entry.args as Record<string, unknown>;
        if (entry.tool === 'act') await act(args as unknown as ActArgs, caller, signal, entry).catch(() => {});
        else if (entry.tool === 'navigate')
          await navigate(String(args.to), LOAD_TIMEOUT_MS, caller, signal).catch(() => {});
        else await evaluate(String(args.expression), Number(args.timeoutMs) || 5000, caller, signal).catch(() => {});
        return { entry: [...log.values()].at(-1)! };
      },
    },
    snapshot: async (args, signal) => {
      const maxChars = args.limit ? MAX_SNAPSHOT_CHARS : DEFAULT_SNAPSHOT_CHARS;
      const o = await outline({ ...args, maxChars }, signal);
      const head = pageLine({ title: o.page.title, url: o.page.url, load: o.page.load });
      const lines = [head, ...o.nodes.map((n) => outlineLine(n))];
      if (args.text) {
        lines.push(
          o.matches
            ? `${o.matches} match${o.matches === 1 ? '' : 'es'} for ${JSON.stringify(args.text)}`
            : `nothing on the page matches ${JSON.stringify(args.text)}`,
        );
      }
      if (o.more > 0) {
        lines.push(
          args.text
            ? `… ${o.more} more lines not shown: narrow the text, or raise limit`
            : `… about ${o.more} more elements not shown: scope with ref or text, or raise limit`,
        );
      }
      return lines.join('\n');
    },
    outline,
    act,
    navigate,
    waitFor,
    evaluate,
    screenshot,
    log: () => [...log.values()],
    lastActMs: () => lastActMs,
  };
}

function actionEntry(e: ActionEntry): TimelineEntry {
  return {
    time: e.time,
    ...(e.end !== undefined ? { end: e.end } : {}),
    plugin: 'ui',
    kind: e.tool,
    level: e.ok ? 'info' : 'warn',
    ref: String(e.seq),
    summary: e.summary,
  };
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

/** An app's refusal about a ref, with the ref named. */
function refMessage(ref: string | undefined, e: RequestError, sessionId: string): string {
  if (e.code === 'handler-error') return ref ? `${ref}: ${e.message}` : e.message;
  return describeRequestError(e, sessionId);
}

function thrownText(v: SerializedValue): string {
  if (v && typeof v === 'object' && '$' in v && v.$ === 'error') {
    const stack = v.stack?.split('\n').slice(1, 6).join('\n');
    return `${v.name}: ${v.message}${stack ? `\n${stack}` : ''}`;
  }
  return JSON.stringify(plainSerialized(v));
}
