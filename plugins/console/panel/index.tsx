import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { JsonTree } from '../../../renderer/src/components/JsonTree.js';
import { PreserveLogBox, usePreserveLog } from '../../../renderer/src/components/PreserveLog.js';
import {
  type PanelEvent,
  type PanelProps,
  usePanelClient,
  usePluginEvents,
  useReveal,
  useRunTool,
} from '../../../renderer/src/panel-kit.js';
import { consoleProtocol, LEVELS, type Level, type Stats } from '../protocol.js';
import { ConsoleList, type ListItem } from './ConsoleList.js';
import { MessageDetail } from './MessageDetail.js';
import { MessageRow, type OpenSource, timeWithMs } from './MessageRow.js';
import { ConsoleModel, groupOpen, isGroup, regexError, textFilter } from './model.js';
import { Repl } from './Repl.js';
import { SourceView } from './SourceView.js';
import {
  editorUrl,
  loadSourceLinkSettings,
  type SourceLinkSettings,
  saveSourceLinkSettings,
  TARGET_NAMES,
} from './source-links.js';
import './console.css';

export { shortSite } from './MessageRow.js';

const PAGE = 20_000;
const LEVEL_NAMES: Record<Level, string> = { debug: 'Verbose', info: 'Info', warn: 'Warnings', error: 'Errors' };
const PRESERVE_KEY = 'porthole.console.preserve';
/** The drive-the-app plugin's tool the input runs. */
const EVALUATE_TOOL = 'ui_evaluate';

/** Something the person ran in the input, and what came back. */
interface Evaluation {
  key: string;
  time: number;
  code: string;
  result?: { ok: boolean; text: string; value?: unknown };
}

type Pane = { kind: 'detail'; seq: number } | { kind: 'source'; seq: number; frame?: number };

/** The app's console, as DevTools shows it: levels, filter, groups, objects opened inline, source links, an input. */
export default function ConsolePanel({ session }: PanelProps) {
  const api = usePanelClient(consoleProtocol, session.id);
  const runTool = useRunTool();
  const model = useMemo(() => new ConsoleModel(), []);
  const version = useSyncExternalStore(model.subscribe, model.getVersion);
  const [levels, setLevels] = useState<ReadonlySet<Level>>(() => new Set(LEVELS));
  const [text, setText] = useState('');
  const { preserve, choose: choosePreserve, reveal: revealEarlierLoads } = usePreserveLog(PRESERVE_KEY);
  const [selected, setSelected] = useState<string>();
  const [pane, setPane] = useState<Pane>();
  const [groups, setGroups] = useState<ReadonlyMap<number, boolean>>(() => new Map());
  const [opened, setOpened] = useState<ReadonlyMap<string, boolean>>(() => new Map());
  const [stats, setStats] = useState<Stats>();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [filling, setFilling] = useState(true);
  const [links, setLinks] = useState<SourceLinkSettings>(loadSourceLinkSettings);
  const [evaluations, setEvaluations] = useState<Evaluation[]>([]);
  const loading = useRef<PanelEvent<typeof consoleProtocol>[] | undefined>([]);
  const hasConsole = session.plugins.accepted.some((p) => p.id === 'console');
  const canEvaluate = session.active && session.plugins.accepted.some((p) => p.id === 'ui');

  const apply = (events: PanelEvent<typeof consoleProtocol>[]) => {
    for (const e of events) {
      if (e.event === 'cleared') {
        model.clear();
        setSelected(undefined);
        setPane(undefined);
      } else {
        model.upsert(e.data.messages);
        setStats(e.data.stats);
      }
    }
  };
  usePluginEvents(consoleProtocol, session.id, (events) => {
    if (loading.current) loading.current.push(...events);
    else apply(events);
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once per mounted panel (one per session)
  useEffect(() => {
    let live = true;
    (async () => {
      try {
        let afterSeq = 0;
        for (;;) {
          const page = await api.call('list', { afterSeq, limit: PAGE });
          if (!live) return;
          model.upsert(page.messages);
          setStats(page.stats);
          const last = page.messages.at(-1);
          if (!page.hasMore || !last) break;
          afterSeq = last.lastSeq ?? last.seq;
        }
      } catch (e) {
        if (live) setError(`Could not load the console: ${(e as Error).message}`);
      } finally {
        const buffered = loading.current ?? [];
        loading.current = undefined;
        if (live) {
          apply(buffered);
          setFilling(false);
        }
      }
    })();
    return () => {
      live = false;
    };
  }, [api, model]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the model's change counter
  const { rows, loads } = useMemo(
    () => model.view({ levels, text, preserve, groups }),
    [model, version, levels, text, preserve, groups],
  );
  const items = useMemo(() => {
    const out: ListItem[] = [];
    let e = 0;
    // Past the first load header every row is inside a load, one level down.
    let nested = 0;
    const evaluation = (ev: Evaluation) => out.push({ key: ev.key, depth: nested });
    for (const row of rows) {
      while (e < evaluations.length && evaluations[e]!.time < row.time) evaluation(evaluations[e++]!);
      const key = String(row.seq);
      const load = loads.get(row.seq);
      if (load) {
        out.push({ key, row, depth: 0, open: load.open, load });
        nested = 1;
        continue;
      }
      const canOpen = isGroup(row) || row.expandable || row.hasStack || row.text.includes('\n') || row.kind === 'table';
      const open = !canOpen
        ? undefined
        : isGroup(row)
          ? groupOpen(row, groups)
          : (opened.get(key) ?? row.kind === 'table');
      out.push({ key, row, depth: nested + (row.group ?? 0), open });
    }
    while (e < evaluations.length) evaluation(evaluations[e++]!);
    return out;
  }, [rows, loads, evaluations, groups, opened]);
  /** Messages that pass the filter, those of closed loads included (the headers say how many). */
  const shownCount = useMemo(() => {
    let n = rows.length - loads.size;
    for (const load of loads.values()) if (!load.open) n += load.messages;
    return n;
  }, [rows, loads]);
  const badRegex = regexError(text);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the model's change counter
  const counts = useMemo(() => {
    const n: Record<Level, number> = { debug: 0, info: 0, warn: 0, error: 0 };
    for (const m of model.all()) if (m.kind !== 'connected') n[m.level] += m.count;
    return n;
  }, [model, version]);

  const toggleLevel = (level: Level) =>
    setLevels((current) => {
      const next = new Set(current);
      if (next.has(level)) next.delete(level);
      else next.add(level);
      return next;
    });
  const toggle = (key: string, open: boolean) => {
    const row = items.find((i) => i.key === key)?.row;
    if (row && (isGroup(row) || loads.has(row.seq))) setGroups((g) => new Map(g).set(row.seq, open));
    else setOpened((o) => new Map(o).set(key, open));
  };
  const clear = async () => {
    setError(undefined);
    try {
      await api.call('clear', {});
      model.clear();
      setSelected(undefined);
      setPane(undefined);
      setEvaluations([]);
    } catch (e) {
      setError(`Could not clear: ${(e as Error).message}`);
    }
  };
  const openSource: OpenSource = (seq, place, frame) => {
    setNotice(undefined);
    const target = editorUrl(links, place);
    if ('url' in target) {
      const a = document.createElement('a');
      a.href = target.url;
      a.rel = 'noreferrer';
      a.click();
      return;
    }
    if (target.why !== 'window') setNotice(target.why);
    setPane({ kind: 'source', seq, ...(frame !== undefined ? { frame } : {}) });
  };
  /** Closes the detail or source pane; the messages get the focus back (its button is gone). */
  const closePane = () => {
    setPane(undefined);
    requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="console-list"]')?.focus());
  };
  const changeLinks = (next: SourceLinkSettings) => {
    setLinks(next);
    saveSourceLinkSettings(next);
  };
  const evaluate = async (code: string) => {
    const key = `e${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
    const entry: Evaluation = { key, time: Date.now(), code };
    setEvaluations((list) => [...list, entry].slice(-200));
    let result: Evaluation['result'];
    try {
      const answer = await runTool(EVALUATE_TOOL, { sessionId: session.id, expression: code });
      const textOut = answer.content
        .map((c) => (c.type === 'text' ? c.text : ''))
        .join('\n')
        .trim();
      const structured = answer.structuredContent as { value?: unknown } | undefined;
      result = answer.isError
        ? { ok: false, text: textOut || 'Failed' }
        : { ok: true, text: textOut, ...(structured && 'value' in structured ? { value: structured.value } : {}) };
    } catch (e) {
      result = { ok: false, text: (e as Error).message };
    }
    setEvaluations((list) => list.map((x) => (x.key === key ? { ...x, result } : x)));
  };

  // A message opened from the session's timeline: selected in the list, with the filters, groups
  // and load that hid it opened.
  useReveal(consoleProtocol, session.id, (ref) => {
    if (filling) return false;
    const row = model.get(Number(ref));
    if (!row) {
      setNotice('That message is no longer kept (the oldest are dropped first).');
      return true;
    }
    setNotice(undefined);
    if (!levels.has(row.level)) setLevels(new Set(LEVELS));
    if (textFilter(text) && !textFilter(text)?.(row.text)) setText('');
    const headers = model.ancestors(row.seq);
    const latest = model.latestLoad();
    if (!preserve && latest !== undefined && row.seq < latest) revealEarlierLoads();
    if (headers.length > 0)
      setGroups((g) => {
        const next = new Map(g);
        for (const seq of headers) next.set(seq, true);
        return next;
      });
    setSelected(String(row.seq));
    requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="console-list"]')?.focus());
    return true;
  });

  const renderRow = (item: ListItem, isSelected: boolean) => {
    if (!item.row) {
      const ev = evaluations.find((x) => x.key === item.key);
      return ev ? <EvaluationRow ev={ev} /> : null;
    }
    return (
      <MessageRow
        row={item.row}
        load={item.load}
        open={item.open}
        selected={isSelected}
        api={api}
        openSource={openSource}
        onToggle={(open) => toggle(item.key, open)}
      />
    );
  };

  return (
    <div className="view con-panel" data-testid="console-panel">
      <div className="con-bar" role="toolbar" aria-label="Console">
        <fieldset className="con-levels" aria-label="Levels">
          {LEVELS.map((level) => (
            <label key={level} className={`con-level level-${level}`}>
              <input
                type="checkbox"
                checked={levels.has(level)}
                onChange={() => toggleLevel(level)}
                data-testid={`console-level-${level}`}
              />
              {LEVEL_NAMES[level]} <span className="muted">{counts[level].toLocaleString()}</span>
            </label>
          ))}
        </fieldset>
        <input
          type="search"
          className="con-filter"
          placeholder="Filter (text or /regex/)"
          aria-label="Filter messages"
          aria-invalid={badRegex ? true : undefined}
          title={badRegex}
          value={text}
          onChange={(e) => setText(e.target.value)}
          data-testid="console-filter"
        />
        <PreserveLogBox
          preserve={preserve}
          choose={choosePreserve}
          className="con-preserve"
          testId="console-preserve"
        />
        <button type="button" onClick={() => void clear()} data-testid="console-clear">
          Clear
        </button>
        <details className="con-settings">
          <summary data-testid="console-settings">Sources</summary>
          <div className="con-settings-body">
            <label>
              Open sources in{' '}
              <select
                value={links.target}
                onChange={(e) => changeLinks({ ...links, target: e.target.value as SourceLinkSettings['target'] })}
                data-testid="console-open-in"
              >
                {Object.entries(TARGET_NAMES).map(([id, name]) => (
                  <option key={id} value={id}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            {links.target === 'custom' && (
              <label>
                URL template{' '}
                <input
                  type="text"
                  value={links.template}
                  onChange={(e) => changeLinks({ ...links, template: e.target.value })}
                  aria-description="{path}, {line} and {column} are replaced"
                  data-testid="console-template"
                />
              </label>
            )}
            {links.target !== 'window' && (
              <label>
                Project folder{' '}
                <input
                  type="text"
                  value={links.root}
                  placeholder="/home/me/shop (for files the app names by URL)"
                  onChange={(e) => changeLinks({ ...links, root: e.target.value })}
                  data-testid="console-root"
                />
              </label>
            )}
          </div>
        </details>
        <span className="muted con-stats" data-testid="console-stats" aria-live="polite">
          {filling && model.all().length > 0 ? `Loading… ${model.all().length.toLocaleString()} messages` : ''}
          {!filling && `${shownCount.toLocaleString()} shown`}
          {stats && stats.evicted > 0 ? ` · ${stats.evicted.toLocaleString()} oldest dropped by the inspector` : ''}
          {stats && stats.droppedByApp > 0 ? ` · ${stats.droppedByApp.toLocaleString()} dropped by the app` : ''}
        </span>
      </div>
      {error && (
        <div className="banner error" role="alert">
          {error}
        </div>
      )}
      {notice && (
        <div className="banner warn" role="status">
          {notice}
        </div>
      )}
      {badRegex && <div className="banner warn">Invalid regex: {badRegex}</div>}
      <div className={`con-split${pane ? ' with-detail' : ''}`}>
        {items.length === 0 ? (
          <div className="empty" data-testid="console-empty" role="status">
            {filling ? (
              'Loading the console…'
            ) : hasConsole ? (
              'No messages yet.'
            ) : (
              <>
                This app does not send its console: add <code>console()</code> to the plugins it passes to{' '}
                <code>connect()</code>.
              </>
            )}
          </div>
        ) : (
          <ConsoleList
            items={items}
            selectedKey={selected}
            onSelect={setSelected}
            onToggle={toggle}
            onOpen={(key) => /^\d+$/.test(key) && setPane({ kind: 'detail', seq: Number(key) })}
            renderRow={renderRow}
          />
        )}
        {pane && (
          // biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere in the pane closes it
          <div
            className="con-pane"
            onKeyDown={(e) => {
              if (e.key !== 'Escape') return;
              e.preventDefault();
              e.stopPropagation();
              closePane();
            }}
          >
            {pane.kind === 'detail' ? (
              <MessageDetail api={api} seq={pane.seq} version={version} onClose={closePane} />
            ) : (
              <SourceView api={api} seq={pane.seq} frame={pane.frame} onClose={closePane} />
            )}
          </div>
        )}
      </div>
      <Repl
        disabled={!canEvaluate}
        why={
          session.active
            ? 'Add ui() to the app’s plugins to evaluate code in it here'
            : 'The app is not connected: nothing to evaluate in'
        }
        onRun={(code) => void evaluate(code)}
      />
    </div>
  );
}

function EvaluationRow({ ev }: { ev: Evaluation }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: the tree grid's one cell per entry
    // biome-ignore lint/a11y/useFocusableInteractive: the tree grid holds the focus
    <div role="gridcell" className="con-row con-eval" data-testid="console-evaluation">
      <div className="con-line">
        <span className="con-time">{timeWithMs(ev.time)}</span>
        <span className="con-prompt" aria-hidden="true">
          ›
        </span>
        <span className="visually-hidden">Evaluated:</span>
        <span className="con-text">{ev.code}</span>
      </div>
      <div className={`con-line con-result${ev.result && !ev.result.ok ? ' level-error' : ''}`}>
        <span className="con-time" />
        <span className="con-prompt" aria-hidden="true">
          ‹
        </span>
        <span className="visually-hidden">Result:</span>
        {!ev.result ? (
          <span className="muted">running…</span>
        ) : ev.result.value !== undefined && ev.result.value !== null && typeof ev.result.value === 'object' ? (
          <JsonTree value={ev.result.value} expandDepth={0} label="Result" />
        ) : (
          <span className="con-text">
            {ev.result.value !== undefined ? JSON.stringify(ev.result.value) : ev.result.text}
          </span>
        )}
      </div>
    </div>
  );
}
